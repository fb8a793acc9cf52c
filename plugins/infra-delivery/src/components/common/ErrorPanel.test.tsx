import { renderInTestApp } from '@backstage/test-utils';
import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { screen } from '@testing-library/react';
import { ErrorPanel } from './ErrorPanel';

const apiError = (status: number, code: string, message: string) =>
  new InfraDeliveryApiError(status, { code, message, requestId: 'req-1' });

describe('ErrorPanel', () => {
  it.each([
    [
      404,
      'InfraDelivery:PipelineRun:NOT_FOUND',
      'Not found in your organization',
    ],
    [
      403,
      'InfraDelivery:Auth:INSUFFICIENT_ROLE',
      'Your role in the organization does not allow this',
    ],
    // A portal whose policy denies by default: the user's role allows it, the policy does not,
    // and it is the policy an admin has to change.
    [
      403,
      'InfraDelivery:Auth:PERMISSION_DENIED',
      "The portal's permission policy does not allow this",
    ],
    [
      401,
      'InfraDelivery:Auth:UNAUTHENTICATED',
      'Not signed in to the infrastructure service',
    ],
    [
      500,
      'InfraDelivery:Service:INTERNAL',
      'The infrastructure service answered with an error',
    ],
  ])(
    'titles a %s by what it means, above the message and the request id',
    async (status, code, title) => {
      await renderInTestApp(
        <ErrorPanel
          error={apiError(status, code, 'PipelineRun nope was not found')}
        />,
      );

      expect(screen.getByText(`Error: ${title}`)).toBeInTheDocument();
      expect(
        screen.getByText('PipelineRun nope was not found'),
      ).toBeInTheDocument();
      expect(
        screen.getByText(`${code} · Request id: req-1`),
      ).toBeInTheDocument();
    },
  );

  it('keeps the title its caller gives, and shows an error the service did not answer', async () => {
    await renderInTestApp(
      <ErrorPanel
        error={new TypeError('Failed to fetch')}
        title="Saving failed"
      />,
    );

    expect(screen.getByText('Error: Saving failed')).toBeInTheDocument();
    expect(
      screen.getByText(
        "The portal's backend did not answer (Failed to fetch): check your connection, or whether the backend is running, then try again.",
      ),
    ).toBeInTheDocument();
  });

  it('does not call a request without an answer an error the service answered', async () => {
    await renderInTestApp(
      <ErrorPanel
        error={new TypeError('NetworkError when attempting to fetch resource.')}
      />,
    );
    expect(
      screen.getByText('Error: Could not reach the infrastructure service'),
    ).toBeInTheDocument();
    expect(
      screen.queryByText(/answered with an error/),
    ).not.toBeInTheDocument();
  });

  it('links an action only to an http(s) address or a portal path', async () => {
    const withAction = (url: string) =>
      new InfraDeliveryApiError(409, {
        code: 'InfraDelivery:Runner:STEP_ERROR',
        message: 'The step failed',
        action: { label: `Open ${url.slice(0, 10)}`, url },
      });
    await renderInTestApp(
      <>
        <ErrorPanel error={withAction('https://wiki.example/runbook')} />
        {/* What a hostile runner could send: the panel must not link it. */}
        {/* eslint-disable-next-line no-script-url */}
        <ErrorPanel error={withAction('javascript:alert(document.cookie)')} />
      </>,
    );

    expect(screen.getByRole('link', { name: /^Open https/ })).toHaveAttribute(
      'href',
      'https://wiki.example/runbook',
    );
    expect(
      screen.queryByRole('link', { name: /^Open javascript/ }),
    ).not.toBeInTheDocument();
  });
});
