export {
  LEGACY_TAB_PATHS,
  LegacyInfrastructurePage,
} from './LegacyInfrastructurePage';
