import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { moduleDirectoryUrl, moduleLocation } from './repositoryLinks';
import { CatalogModule } from './useModules';

/** "acme/modules/network/vpc", linked to the directory on its forge while it is connected. */
export const ModuleLocation = ({ module }: { module: CatalogModule }) => {
  const text = moduleLocation(module.codeSource, module.path);
  return module.codeSource ? (
    <Link
      href={moduleDirectoryUrl(module.codeSource, module.path)}
      target="_blank"
      rel="noopener noreferrer"
    >
      {text}
    </Link>
  ) : (
    <Typography variant="body2" component="span" color="textSecondary">
      {text}
    </Typography>
  );
};
