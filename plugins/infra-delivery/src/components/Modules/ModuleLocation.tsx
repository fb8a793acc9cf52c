import { Fragment } from 'react';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { moduleDirectoryUrl, moduleLocation } from './repositoryLinks';
import { CatalogModule } from './useModules';

/**
 * A path that a narrow column breaks after its slashes ("acme/network-infra/ / modules/vpc"),
 * where the table's theme broke it anywhere ("modules/se / rvice-alarms").
 */
const BreakingAfterSlashes = ({ text }: { text: string }) => (
  <>
    {text.split('/').map((part, i) => (
      <Fragment key={i}>
        {i > 0 && (
          <>
            /<wbr />
          </>
        )}
        {part}
      </Fragment>
    ))}
  </>
);

/** "acme/modules/network/vpc", linked to the directory on its forge while it is connected. */
export const ModuleLocation = ({ module }: { module: CatalogModule }) => {
  const text = moduleLocation(module.codeSource, module.path);
  return module.codeSource ? (
    <Link
      href={moduleDirectoryUrl(module.codeSource, module.path)}
      target="_blank"
      rel="noopener noreferrer"
    >
      <BreakingAfterSlashes text={text} />
    </Link>
  ) : (
    <Typography variant="body2" component="span" color="textSecondary">
      <BreakingAfterSlashes text={text} />
    </Typography>
  );
};
