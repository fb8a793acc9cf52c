import { Progress } from '@backstage/core-components';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { DialogText } from '../common/DialogText';
import { ErrorPanel } from '../common/ErrorPanel';
import { ErrorText } from '../common/WarningText';
import { DeployDialogFrame, ReviewEnd } from './DeployDialogFrame';
import { descriptionProblemOf, problemOrHint } from './deployFields';
import { DescriptionField } from './DescriptionField';
import { FirstDeployPlace } from './firstDeployPlace';
import {
  containerImages,
  taskDefinitionTemplate,
  typedTaskDefinition,
} from './firstRelease';
import { useDeployRequest } from './useDeployRequest';
import { useFirstDeployTarget } from './useFirstDeployTarget';

/** The fields of the form, by the request's paths the service names in a 400. */
const FIELD_OF_PATH: Record<string, string> = {
  taskDefinition: 'taskDefinition',
  description: 'description',
};

/** Where the deployment goes, one line each, as the entity's annotations name it. */
const PlaceLines = ({ lines }: { lines: [string, string][] }) => (
  <Box component="dl" m={0}>
    {lines.map(([term, value]) => (
      <Box key={term} display="flex" style={{ gap: 8 }}>
        <Typography component="dt" variant="body2" color="textSecondary">
          {term}
        </Typography>
        <Typography component="dd" variant="body2" style={{ margin: 0 }}>
          {value}
        </Typography>
      </Box>
    ))}
  </Box>
);

/**
 * The first deployment of a service that has none here yet (`POST /deployments` with a whole
 * `taskDefinition`). Where it goes comes from the entity's annotations (`place`), found in the
 * organization by id; the person gives the task definition as JSON, started from the least ECS
 * registers, and a description, checked by the service's own rules as they type. A new image
 * alone cannot be deployed yet (there is no earlier release to put it into), which the dialog
 * says. Review names what is registered and where, and only then is the request sent.
 */
export const FirstDeployDialog = ({
  place,
  onClose,
  onStarted,
}: {
  place: FirstDeployPlace;
  onClose: () => void;
  onStarted: (deployment: Deployment) => void;
}) => {
  const { serviceRef: serviceName, clusterRef: clusterName } = place;
  const found = useFirstDeployTarget(place);
  const [text, setText] = useState(() => taskDefinitionTemplate(serviceName));
  const [touched, setTouched] = useState(false);
  const [description, setDescription] = useState('');
  const [reviewing, setReviewing] = useState(false);

  const typed = typedTaskDefinition(text);
  const definition = 'definition' in typed ? typed.definition : undefined;
  const definitionProblem = 'problem' in typed ? typed.problem : undefined;
  const descriptionProblem = descriptionProblemOf(description);
  const resolved =
    found.value && 'target' in found.value ? found.value : undefined;
  const placeProblem =
    (found.value && 'problem' in found.value && found.value.problem) ||
    resolved?.accountProblem;

  const { refused, busy, error, submit, silentFor } = useDeployRequest({
    request: JSON.stringify([definition, description.trim()]),
    body: () => ({
      ...resolved!.target,
      environmentId: resolved!.target.environmentId!,
      taskDefinition: definition!,
      ...(description.trim() && { description: description.trim() }),
    }),
    fieldOfPath: FIELD_OF_PATH,
    onRefused: () => setReviewing(false),
    onStarted,
  });
  const family = String(definition?.family ?? '');

  return (
    <DeployDialogFrame
      title={
        reviewing
          ? `Deploy ${family} to ${serviceName}?`
          : `Deploy to ${serviceName}`
      }
      reviewing={reviewing}
      reviewProblem={
        (found.loading && 'Finding where it goes…') ||
        (found.error && 'Where it goes could not be read') ||
        placeProblem ||
        definitionProblem ||
        descriptionProblem ||
        (refused && 'Change what the service refused') ||
        undefined
      }
      busy={busy}
      silentFor={silentFor}
      onReview={() => setReviewing(true)}
      onBack={() => setReviewing(false)}
      onDeploy={submit}
      onClose={onClose}
    >
      {reviewing && definition && resolved ? (
        <>
          <DialogText paragraph>
            The first deployment of {serviceName} in cluster {clusterName}{' '}
            registers task definition {family} and rolls the service onto it, in{' '}
            {resolved.environmentName} with cloud account {resolved.accountName}
            , {place.region}. Its containers:
          </DialogText>
          <Box component="ul" mt={0} mb={2}>
            {containerImages(definition).map(line => (
              <li key={line}>
                <code>{line}</code>
              </li>
            ))}
          </Box>
          <ReviewEnd description={description} error={error} />
        </>
      ) : (
        <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
          <DialogText>
            {serviceName} has no deployment here yet: the first one registers a
            whole task definition. A new image alone cannot be deployed until a
            release has run here to put it into; after this one, Deploy rolls
            new images of it.
          </DialogText>
          <Box>
            <Typography variant="body2" color="textSecondary" gutterBottom>
              Where it goes, from the entity’s annotations:
            </Typography>
            <PlaceLines
              lines={[
                ['Service', `${serviceName} in cluster ${clusterName}`],
                [
                  'Environment',
                  resolved?.environmentName ??
                    `${place.environment} of project ${place.project}`,
                ],
                [
                  'Cloud account',
                  `${resolved?.accountName ?? place.cloudAccountId}, ${
                    place.region
                  }`,
                ],
              ]}
            />
            {found.loading && <Progress />}
            {placeProblem && (
              <Typography variant="body2" role="alert">
                <ErrorText>{placeProblem}</ErrorText>
              </Typography>
            )}
          </Box>
          {found.error && (
            <ErrorPanel
              error={found.error}
              title="Where it goes could not be read"
            />
          )}
          <TextField
            id="deploy-task-definition"
            label="Task definition (JSON)"
            required
            multiline
            minRows={8}
            value={text}
            inputProps={{
              spellCheck: false,
              style: { fontFamily: 'monospace', fontSize: 13 },
            }}
            {...problemOrHint(
              (touched ? definitionProblem : undefined) ??
                refused?.taskDefinition,
              'As ECS RegisterTaskDefinition takes it: its family and containerDefinitions, each container with a name and an image',
            )}
            onChange={event => {
              setTouched(true);
              setText(event.target.value);
            }}
          />
          <DescriptionField
            value={description}
            problem={descriptionProblem ?? refused?.description}
            defaultName={`Deploy ${family || '<family>'} to ${serviceName}`}
            onChange={setDescription}
          />
        </Box>
      )}
    </DeployDialogFrame>
  );
};
