import { Link, WarningPanel } from '@backstage/core-components';
import {
  ErrorBody,
  InfraDeliveryApiError,
  isSafeLinkUrl,
} from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { isUnanswered } from './silence';

/** A detail line `body.data.role: Invalid option…` as a person reads it: `role: Invalid option…`. */
function readableDetail(item: string): string {
  return item.replace(/^(body\.data\.|body\.|query\.|path\.)/, '');
}

/**
 * What an error body explains beyond its message: its description, its detail sections and the
 * action it offers (a link). Shared by the panels of failed requests and a failed run's error.
 */
export const ErrorBodyDetails = ({ body }: { body: ErrorBody }) => (
  <>
    {body.description && <Typography paragraph>{body.description}</Typography>}
    {body.details?.map(section => (
      <div key={section.title}>
        <Typography variant="subtitle2" component="p">
          {section.title}
        </Typography>
        {section.render === 'list' ? (
          <ul>
            {section.items?.map(item => (
              <li key={item}>
                <Typography variant="body2">{readableDetail(item)}</Typography>
              </li>
            ))}
          </ul>
        ) : (
          <Typography variant="body2" component="pre">
            {JSON.stringify(section.object, null, 2)}
          </Typography>
        )}
      </div>
    ))}
    {body.action && isSafeLinkUrl(body.action.url) && (
      <Typography paragraph>
        <Link to={body.action.url}>{body.action.label}</Link>
      </Typography>
    )}
  </>
);

/** The error's message, and for a request without an answer what a person can check. */
export function messageOf(error: Error): string {
  return isUnanswered(error)
    ? `The portal's backend did not answer (${error.message}): check your connection, or whether the backend is running, then try again.`
    : error.message;
}

/**
 * What went wrong, by the service's status: a page opened from an old link (a deleted run, an
 * id of another organization) reads "Not found", not as the service failing; a request without
 * an answer does not read as the service answering; a 403 of the portal's permission policy
 * names the policy, not the caller's role.
 */
export function errorTitleOf(error: Error): string {
  if (isUnanswered(error)) {
    return 'Could not reach the infrastructure service';
  }
  const apiError = error instanceof InfraDeliveryApiError ? error : undefined;
  switch (apiError?.status) {
    case 401:
      return 'Not signed in to the infrastructure service';
    case 403:
      // The role allowed it and the portal's policy did not (a policy that denies what it
      // does not name): the policy is what an admin changes, not the role.
      return apiError?.body.code === 'InfraDelivery:Auth:PERMISSION_DENIED'
        ? "The portal's permission policy does not allow this"
        : 'Your role in the organization does not allow this';
    case 404:
      return 'Not found in your organization';
    default:
      return 'The infrastructure service answered with an error';
  }
}

/**
 * An error as a person can act on it, open: the service's message, what it explains (its
 * description, the fields its details name, the action it offers) and the request id to quote.
 * Its title says what failed where the caller knows, and otherwise {@link errorTitleOf}.
 */
export const ErrorPanel = ({
  error,
  title = errorTitleOf(error),
}: {
  error: Error;
  title?: string;
}) => (
  <WarningPanel severity="error" title={title} defaultExpanded>
    <div>
      <Typography paragraph>{messageOf(error)}</Typography>
      {error instanceof InfraDeliveryApiError && (
        <>
          <ErrorBodyDetails body={error.body} />
          <Typography variant="caption" component="p">
            {error.body.code}
            {error.body.requestId
              ? ` · Request id: ${error.body.requestId}`
              : ''}
          </Typography>
        </>
      )}
    </div>
  </WarningPanel>
);
