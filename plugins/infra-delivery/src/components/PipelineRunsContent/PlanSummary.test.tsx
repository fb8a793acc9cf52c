import { IacExecutionSummary } from '@infra-delivery/plugin-infra-delivery-common';
import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import {
  byTextContent,
  iacExecutionSummary,
} from '../../__testUtils__/infraDeliveryTestKit';
import { PlanSummary, summariesInStepOrder } from './PlanSummary';

describe('PlanSummary', () => {
  /** A plan of run r1 with `counts`. */
  const renderPlan = (counts: Partial<IacExecutionSummary>) =>
    renderInTestApp(
      <PlanSummary
        summary={iacExecutionSummary({
          id: 's1',
          pipelineRunId: 'r1',
          ...counts,
        })}
      />,
    );

  it('says that a plan which changes nothing has nothing to apply', async () => {
    await renderPlan({ unchangedCount: 4, applyable: false });
    expect(screen.getByText(byTextContent(/^Plan:/))).toHaveTextContent(
      'Plan: +0 ~0 −0 · 4 unchanged · nothing to apply',
    );
  });

  it('says nothing of the kind for a plan to apply, or for an apply', async () => {
    await renderInTestApp(
      <>
        <PlanSummary
          summary={iacExecutionSummary({
            id: 's1',
            pipelineRunId: 'r1',
            addCount: 2,
          })}
        />
        <PlanSummary
          summary={iacExecutionSummary({
            id: 's2',
            pipelineRunId: 'r1',
            runType: 'APPLY',
            addCount: 2,
            applyable: false,
          })}
        />
      </>,
    );
    expect(screen.queryByText(/nothing to apply/)).not.toBeInTheDocument();
  });

  it('colours the counts that count something, leaves a 0 in the text’s colour, and names each on hover', async () => {
    await renderPlan({ addCount: 4 });
    const added = screen.getByTitle('4 to add');
    expect(added).toHaveTextContent('+4');
    expect(added.style.color).not.toBe('');
    for (const zero of ['0 to change', '0 to destroy']) {
      expect(screen.getByTitle(zero).style.color).toBe('');
    }
  });

  it('orders a run’s summaries as its steps ran: the plan above the destroy that followed it', () => {
    const destroy = iacExecutionSummary({
      id: 'destroy',
      pipelineRunId: 'r1',
      runType: 'DESTROY',
      stepExecutionId: 'step-destroy',
    });
    const plan = iacExecutionSummary({
      id: 'plan',
      pipelineRunId: 'r1',
      runType: 'PLAN',
      stepExecutionId: 'step-plan',
    });
    expect(
      summariesInStepOrder(
        [destroy, plan],
        [
          { id: 'step-plan', position: 0 },
          { id: 'step-approval', position: 1 },
          { id: 'step-destroy', position: 2 },
        ],
      ).map(summary => summary.id),
    ).toEqual(['plan', 'destroy']);
  });
});
