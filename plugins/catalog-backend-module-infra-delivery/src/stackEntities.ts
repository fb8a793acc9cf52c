import { ANNOTATION_SOURCE_LOCATION, Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_ENVIRONMENT,
  ANNOTATION_PROJECT,
  ANNOTATION_STACKS,
  CloudAccount,
  CodeSource,
  Environment,
  Project,
  Stack,
  STACK_ENTITY_TYPE,
} from '@infra-delivery/plugin-infra-delivery-common';
import { cloudAccountEntity } from './cloudAccountEntities';
import { stackDriftMetadata } from './stackDrift';
import {
  cloudAccountEntityName,
  environmentEntityName,
  managedAnnotations,
  projectEntityName,
  stackEntityName,
} from './entityNames';

export interface EntityOptions {
  defaultOwner: string;
  /** Project givenId → owner of the project's system, environments and stacks. */
  projectOwners: Record<string, string>;
  /** Cloud account givenId → owner of the account's entity. */
  cloudAccountOwners: Record<string, string>;
  portalBaseUrl?: string;
}

/**
 * Where the stack's code lives, as a `url:` location of its directory on the default branch,
 * so that the catalog's "View source" opens the stack's Terraform / OpenTofu code.
 */
function stackSourceLocation(stack: Stack, codeSource: CodeSource): string {
  const directory = (stack.path ?? '')
    .replace(/^(\.?\/)+/, '')
    .replace(/\/+$/, '');
  return `url:${codeSource.repoUrl}/tree/${codeSource.defaultBranch}/${
    directory ? `${directory}/` : ''
  }`;
}

/**
 * The catalog's view of the service: each project a System, each environment a Resource of
 * it, each cloud account a Resource, and each stack a Resource (type `iac-stack`) that depends
 * on its environment and its cloud account; its source location is its code in its
 * repository. A stack, and a project or environment with stacks, carries the plugin's
 * `infra-delivery.io/stacks` annotation, so the Stacks and Pipeline runs tabs appear on it.
 */
export function entitiesOf(
  data: {
    projects: Project[];
    environments: Environment[];
    stacks: Stack[];
    cloudAccounts: CloudAccount[];
    codeSources: CodeSource[];
  },
  options: EntityOptions,
): Entity[] {
  const projects = new Map(data.projects.map(p => [p.id, p]));
  const codeSources = new Map(data.codeSources.map(c => [c.id, c]));
  const ownerOf = (project: Project) =>
    options.projectOwners[project.givenId] ?? options.defaultOwner;
  const entities: Entity[] = [];
  // The stacks of each project and of each environment: their entities get the Stacks and
  // Pipeline runs tabs too, for all of their stacks.
  const stackIdsOf = (key: (stack: Stack) => string) => {
    const ids = new Map<string, string[]>();
    for (const stack of data.stacks) {
      ids.set(key(stack), [...(ids.get(key(stack)) ?? []), stack.id]);
    }
    return (id: string): Record<string, string> =>
      ids.has(id) ? { [ANNOTATION_STACKS]: ids.get(id)!.join(',') } : {};
  };
  const projectStacks = stackIdsOf(stack => stack.projectId);
  const environmentStacks = stackIdsOf(stack => stack.environmentId);

  for (const project of data.projects) {
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'System',
      metadata: {
        name: projectEntityName(project),
        title: project.name,
        description: project.description,
        annotations: managedAnnotations({
          [ANNOTATION_PROJECT]: project.givenId,
          ...projectStacks(project.id),
        }),
      },
      spec: { owner: ownerOf(project) },
    });
  }

  const environments = new Map<string, string>();
  for (const environment of data.environments) {
    const project = projects.get(environment.projectId);
    if (!project) continue;
    const name = environmentEntityName(project, environment);
    environments.set(environment.id, name);
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name,
        title: `${project.name} · ${environment.name}`,
        // The catalog's About card reads "No description" otherwise: environments seldom have one.
        description:
          environment.description ??
          `The ${environment.name} environment of the ${project.name} project`,
        annotations: managedAnnotations({
          [ANNOTATION_PROJECT]: project.givenId,
          [ANNOTATION_ENVIRONMENT]: environment.givenId,
          ...environmentStacks(environment.id),
        }),
      },
      spec: {
        type: 'environment',
        owner: ownerOf(project),
        system: projectEntityName(project),
      },
    });
  }

  const cloudAccounts = new Map<string, string>();
  for (const account of data.cloudAccounts) {
    cloudAccounts.set(account.id, cloudAccountEntityName(account));
    entities.push(
      cloudAccountEntity(account, {
        owner:
          options.cloudAccountOwners[account.givenId] ?? options.defaultOwner,
        portalBaseUrl: options.portalBaseUrl,
      }),
    );
  }

  for (const stack of data.stacks) {
    const project = projects.get(stack.projectId);
    if (!project) continue;
    const name = stackEntityName(stack.id);
    const environmentEntity = environments.get(stack.environmentId);
    const accountEntity = stack.cloudAccountId
      ? cloudAccounts.get(stack.cloudAccountId)
      : undefined;
    const codeSource = stack.codeSourceId
      ? codeSources.get(stack.codeSourceId)
      : undefined;
    const dependsOn = [
      ...(environmentEntity ? [`resource:default/${environmentEntity}`] : []),
      ...(accountEntity ? [`resource:default/${accountEntity}`] : []),
    ];
    const drift = stackDriftMetadata(stack);
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name,
        title: stack.name,
        description: stack.description,
        ...(Object.keys(drift.labels).length > 0
          ? { labels: drift.labels }
          : {}),
        annotations: managedAnnotations({
          [ANNOTATION_PROJECT]: project.givenId,
          [ANNOTATION_STACKS]: stack.id,
          ...drift.annotations,
          ...(codeSource
            ? {
                [ANNOTATION_SOURCE_LOCATION]: stackSourceLocation(
                  stack,
                  codeSource,
                ),
              }
            : {}),
        }),
        ...(options.portalBaseUrl
          ? {
              links: [
                {
                  url: `${options.portalBaseUrl}/catalog/default/resource/${name}/infra-stacks`,
                  title: 'Stack in the portal',
                },
                {
                  url: `${options.portalBaseUrl}/catalog/default/resource/${name}/infra-runs`,
                  title: 'Pipeline runs',
                },
              ],
            }
          : {}),
      },
      spec: {
        type: STACK_ENTITY_TYPE,
        owner: ownerOf(project),
        system: projectEntityName(project),
        ...(dependsOn.length > 0 ? { dependsOn } : {}),
      },
    });
  }
  return entities;
}
