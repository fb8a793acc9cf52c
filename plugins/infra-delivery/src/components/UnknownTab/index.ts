export { KnownTabsOnly } from './KnownTabsOnly';
export { UnknownTab } from './UnknownTab';
export type { InfrastructureTab } from './UnknownTab';
