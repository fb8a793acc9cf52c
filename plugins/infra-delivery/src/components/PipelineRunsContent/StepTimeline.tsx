import { useApi } from '@backstage/frontend-plugin-api';
import { StepExecution } from '@internal/plugin-infra-delivery-common';
import Accordion from '@material-ui/core/Accordion';
import AccordionDetails from '@material-ui/core/AccordionDetails';
import AccordionSummary from '@material-ui/core/AccordionSummary';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { RunStatus } from '../common/RunStatus';

const StepLogs = ({ stepId }: { stepId: string }) => {
  const client = useApi(infraDeliveryApiRef);
  const { value, loading, error } = useAsync(
    () =>
      client.call('listStepExecutionLogs', {
        params: { id: stepId },
        query: { limit: 500 },
      }),
    [client, stepId],
  );
  if (loading) return <Typography variant="caption">Loading logs…</Typography>;
  if (error) return <ErrorPanel error={error} />;
  if (!value?.data.length) {
    return <Typography variant="caption">No log lines.</Typography>;
  }
  return (
    <Box
      component="pre"
      width="100%"
      maxHeight={320}
      overflow="auto"
      fontSize={12}
      margin={0}
    >
      {value.data.map(line => line.text).join('\n')}
    </Box>
  );
};

/** The run's steps in order; opening one shows its logs. */
export const StepTimeline = ({ steps }: { steps: StepExecution[] }) => {
  const [open, setOpen] = useState<string>();
  return (
    <Box marginY={2}>
      {steps.map(step => (
        <Accordion
          key={step.id}
          expanded={open === step.id}
          onChange={(_, expanded) => setOpen(expanded ? step.id : undefined)}
          TransitionProps={{ unmountOnExit: true }}
        >
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>
            <Box display="flex" alignItems="center" style={{ gap: 16 }}>
              <Typography>
                {step.position + 1}. {step.name}
              </Typography>
              <Typography variant="caption" color="textSecondary">
                {step.type}
              </Typography>
              <RunStatus status={step.status} />
              {step.error && (
                <Typography variant="caption" color="error">
                  {step.error.message}
                </Typography>
              )}
            </Box>
          </AccordionSummary>
          <AccordionDetails>
            <StepLogs stepId={step.id} />
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
};
