import {
  containerImageReleaseSchema,
  Deployment,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { DialogText } from '../common/DialogText';
import { DeployDialogFrame, ReviewEnd } from './DeployDialogFrame';
import { descriptionProblemOf, problemOf, problemOrHint } from './deployFields';
import { TaskDefinitionDiff } from './TaskDefinitionDiff';
import { useDeployRequest } from './useDeployRequest';
import { DescriptionField } from './DescriptionField';

/** Where a new deployment of the service goes: as its earlier deployments went. */
export type DeployTarget = Pick<
  Deployment,
  'environmentId' | 'moduleInstanceId'
> &
  Pick<
    Deployment['data'],
    'cloudAccountId' | 'region' | 'clusterRef' | 'serviceRef'
  >;

/** Where a new deployment of the service goes, as `deployment` went. */
export function deployTargetOf(deployment: Deployment): DeployTarget {
  const { cloudAccountId, region, clusterRef, serviceRef } = deployment.data;
  return {
    environmentId: deployment.environmentId,
    moduleInstanceId: deployment.moduleInstanceId,
    cloudAccountId,
    region,
    clusterRef,
    serviceRef,
  };
}

/** A container of a task definition, by its name, with the image it runs. */
interface Container {
  name: string;
  image: string;
}

export function containersOf(release?: TaskDefinitionSnapshot): Container[] {
  const containers = release?.definition.containerDefinitions;
  return Array.isArray(containers)
    ? containers.map(c => ({ name: String(c?.name), image: String(c?.image) }))
    : [];
}

/** An image without its registry and path, as the service names a deployment after it. */
export function imageName(image: string): string {
  return image.slice(image.lastIndexOf('/') + 1);
}

/** The fields of the form, by the request's paths the service names in a 400. */
const FIELD_OF_PATH: Record<string, string> = {
  'image.image': 'image',
  description: 'description',
};

/**
 * Deploys a new image of the service (`POST /deployments` with `image`): the release that runs
 * now with that image in one container, every other field kept. The person gives the image
 * (the one running now is offered to edit, its tag usually all that changes), the container
 * when the release has several, and a description; the service's own rules check them while
 * they type. Review shows what changes against the running release and asks to confirm;
 * only then is the request sent. What the service refuses is said beside the field it names,
 * or whole (its ErrorBody) above the buttons.
 */
export const DeployDialog = ({
  serviceName,
  clusterName,
  target,
  running,
  onClose,
  onStarted,
}: {
  serviceName: string;
  clusterName: string;
  target: DeployTarget;
  /** The release that runs now, when a deployment of it is known here. */
  running?: TaskDefinitionSnapshot;
  onClose: () => void;
  onStarted: (deployment: Deployment) => void;
}) => {
  const containers = containersOf(running);
  const [containerName, setContainerName] = useState(
    containers.length === 1 ? containers[0].name : '',
  );
  const container = containers.find(c => c.name === containerName);
  const [image, setImage] = useState(container?.image ?? '');
  const [description, setDescription] = useState('');
  const [reviewing, setReviewing] = useState(false);
  const [touched, setTouched] = useState(false);

  const wanted = image.trim();
  const imageProblem =
    problemOf(containerImageReleaseSchema.shape.image, wanted) ??
    (container && wanted === container.image
      ? 'This image runs now: give the new one'
      : undefined);
  const descriptionProblem = descriptionProblemOf(description);
  const containerProblem =
    containers.length > 1 && !container ? 'Choose a container' : undefined;

  const release = {
    image: wanted,
    ...(containers.length > 1 && { containerName }),
  };
  const { refused, busy, error, submit, silentFor } = useDeployRequest({
    request: JSON.stringify([release, description.trim()]),
    body: () => ({
      cloudAccountId: target.cloudAccountId,
      region: target.region,
      environmentId: target.environmentId!,
      ...(target.moduleInstanceId && {
        moduleInstanceId: target.moduleInstanceId,
      }),
      clusterRef: target.clusterRef,
      serviceRef: target.serviceRef,
      image: release,
      ...(description.trim() && { description: description.trim() }),
    }),
    fieldOfPath: FIELD_OF_PATH,
    // Back to the form, the refusal beside the fields it names.
    onRefused: () => setReviewing(false),
    onStarted,
  });
  const shownImageProblem = touched ? imageProblem : undefined;

  const changed: TaskDefinitionSnapshot | undefined =
    running &&
    ({
      ...running,
      definition: {
        ...running.definition,
        containerDefinitions: (
          running.definition.containerDefinitions as Record<string, unknown>[]
        ).map(c => (c.name === containerName ? { ...c, image: wanted } : c)),
      },
    } as TaskDefinitionSnapshot);

  return (
    <DeployDialogFrame
      title={
        reviewing
          ? `Deploy ${imageName(wanted)} to ${serviceName}?`
          : `Deploy to ${serviceName}`
      }
      reviewing={reviewing}
      reviewProblem={
        containerProblem ??
        imageProblem ??
        descriptionProblem ??
        (refused && 'Change what the service refused')
      }
      busy={busy}
      silentFor={silentFor}
      onReview={() => setReviewing(true)}
      onBack={() => setReviewing(false)}
      onDeploy={submit}
      onClose={onClose}
    >
      {reviewing ? (
        <>
          <DialogText paragraph>
            A new deployment of {serviceName} in cluster {clusterName} rolls{' '}
            {running
              ? 'the release that runs now with the new image:'
              : `the task definition the service runs now, with image ${wanted}.`}
          </DialogText>
          {changed && (
            <Box mb={2}>
              <TaskDefinitionDiff from={running} to={changed} />
            </Box>
          )}
          <ReviewEnd description={description} error={error} />
        </>
      ) : (
        <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
          <DialogText>
            The release that runs now, with a new image in one container: every
            other setting stays.
          </DialogText>
          {containers.length > 1 && (
            <TextField
              id="deploy-container"
              select
              required
              label="Container"
              value={containerName}
              onChange={event => {
                setContainerName(event.target.value);
                setImage(
                  containers.find(c => c.name === event.target.value)?.image ??
                    image,
                );
              }}
            >
              {containers.map(c => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            id="deploy-image"
            label="Image"
            required
            autoComplete="off"
            value={image}
            {...problemOrHint(
              shownImageProblem ?? refused?.image,
              container
                ? `Running now: ${container.image}`
                : 'The whole reference: registry/repository:tag',
            )}
            onChange={event => {
              setTouched(true);
              setImage(event.target.value);
            }}
          />
          <DescriptionField
            value={description}
            problem={descriptionProblem ?? refused?.description}
            defaultName={`Deploy ${
              imageName(wanted) || '<image>'
            } to ${serviceName}`}
            onChange={setDescription}
          />
        </Box>
      )}
    </DeployDialogFrame>
  );
};
