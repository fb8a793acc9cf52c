import { DatabaseKind } from './databases';

export interface BenchOptions {
  databases: DatabaseKind[];
  scale: number;
  connections: number[];
  /** Seconds of load per endpoint and connection count. */
  duration: number;
  port: number;
  /** Regenerate the dataset even when one of this scale exists. */
  regenerate: boolean;
  /** Only generate the datasets. */
  generateOnly: boolean;
  /** Endpoint names to run (all when empty). */
  only: string[];
  /** Run the backend from its TypeScript sources instead of a production build. */
  fromSources: boolean;
  /** Run the production build made by an earlier run instead of building again. */
  reuseBuild: boolean;
  /** How long the catalog may take to process its entities before the peer is measured. */
  catalogWaitMinutes: number;
}

const USAGE = `Usage: yarn bench [--db sqlite|postgres|both] [--scale 1] [--connections 1,16]
                  [--duration 10] [--port 7200] [--regenerate] [--generate-only]
                  [--only name,name] [--from-sources] [--reuse-build]
                  [--catalog-wait 10]`;

export function parseOptions(argv: string[]): BenchOptions {
  const options: BenchOptions = {
    databases: ['sqlite', 'postgres'],
    scale: 1,
    connections: [1, 16],
    duration: 10,
    port: 7200,
    regenerate: false,
    generateOnly: false,
    only: [],
    fromSources: false,
    reuseBuild: false,
    catalogWaitMinutes: 10,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    switch (arg) {
      case '--db': {
        const db = value();
        if (db === 'both') options.databases = ['sqlite', 'postgres'];
        else if (db === 'sqlite' || db === 'postgres') options.databases = [db];
        else throw new Error(`--db must be sqlite, postgres or both\n${USAGE}`);
        break;
      }
      case '--scale':
        options.scale = Number(value());
        if (!(options.scale > 0 && options.scale <= 1)) {
          throw new Error(`--scale must be in (0, 1]\n${USAGE}`);
        }
        break;
      case '--connections':
        options.connections = value().split(',').map(Number);
        if (options.connections.some(c => !Number.isInteger(c) || c < 1)) {
          throw new Error(`--connections takes positive integers\n${USAGE}`);
        }
        break;
      case '--duration':
        options.duration = Number(value());
        break;
      case '--port':
        options.port = Number(value());
        break;
      case '--regenerate':
        options.regenerate = true;
        break;
      case '--generate-only':
        options.generateOnly = true;
        break;
      case '--only':
        options.only = value().split(',');
        break;
      case '--from-sources':
        options.fromSources = true;
        break;
      case '--reuse-build':
        options.reuseBuild = true;
        break;
      case '--catalog-wait':
        options.catalogWaitMinutes = Number(value());
        if (!(options.catalogWaitMinutes > 0)) {
          throw new Error(`--catalog-wait takes minutes above 0\n${USAGE}`);
        }
        break;
      case '--help':
        throw new Error(USAGE);
      default:
        throw new Error(`Unknown option ${arg}\n${USAGE}`);
    }
  }
  return options;
}
