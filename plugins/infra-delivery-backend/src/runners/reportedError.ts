import {
  ErrorBody,
  isSafeLinkUrl,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * A failed step's error as a runner reported it, as the service keeps and shows it to
 * everyone who reads the run: the runner's code, message and explanations, without what only
 * the service may say. `isInternal` marks internal details for a superadmin's view and
 * `requestId` names one of the service's own requests; a runner set both. An action's link is
 * kept only to an http(s) address or a portal path: a `javascript:` one ran when pressed.
 */
export function reportedError(error: ErrorBody): ErrorBody {
  const { isInternal: _internal, requestId: _request, action, ...kept } = error;
  return action && isSafeLinkUrl(action.url) ? { ...kept, action } : kept;
}
