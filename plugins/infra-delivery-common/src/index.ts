/**
 * Wire schemas, operations, permissions, annotations and the typed API client shared by the
 * infra-delivery plugins.
 *
 * @packageDocumentation
 */
export * from './schemas';
export * from './api';
export * from './annotations';
export * from './permissions';
export * from './portalPages';
export * from './portalNotifications';
export * from './safeLinks';
export * from './client';
export * from './iacChanges';
export * from './formatDuration';
export * from './runnerSilence';
export * from './runnerLabels';
export * from './moduleValueProblems';
