import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerProjectRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.createProject, async ({ caller, body }) => ({
    data: await services.projects.createProject(caller, body.data),
  }));

  bind(operations.listProjects, async ({ caller, query }) => {
    const scope = pageScope('projects', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.projects.listProjects(caller, page),
    );
  });

  bind(operations.getProject, async ({ caller, params }) => ({
    data: await services.projects.getProject(caller, params.id),
  }));

  bind(operations.updateProject, async ({ caller, params, body }) => ({
    data: await services.projects.updateProject(caller, params.id, body.data),
  }));

  bind(operations.deleteProject, async ({ caller, params }) => {
    await services.projects.deleteProject(caller, params.id);
  });

  bind(operations.createEnvironment, async ({ caller, params, body }) => ({
    data: await services.projects.createEnvironment(
      caller,
      params.projectId,
      body.data,
    ),
  }));

  bind(operations.listEnvironments, async ({ caller, params, query }) => {
    const scope = pageScope(
      'environments',
      caller.organizationId,
      params.projectId,
    );
    return cursors.list(query, scope, page =>
      services.projects.listEnvironments(caller, params.projectId, page),
    );
  });

  bind(operations.getEnvironment, async ({ caller, params }) => ({
    data: await services.projects.getEnvironment(
      caller,
      params.projectId,
      params.id,
    ),
  }));

  bind(operations.updateEnvironment, async ({ caller, params, body }) => ({
    data: await services.projects.updateEnvironment(
      caller,
      params.projectId,
      params.id,
      body.data,
    ),
  }));

  bind(operations.deleteEnvironment, async ({ caller, params }) => {
    await services.projects.deleteEnvironment(
      caller,
      params.projectId,
      params.id,
    );
  });
}
