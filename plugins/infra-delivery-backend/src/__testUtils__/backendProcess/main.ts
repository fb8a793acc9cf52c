/**
 * A production-like backend with the infra-delivery plugin, run as its own process by the
 * reliability tests and the soak (see ../backendProcess.ts): configuration from `--config`,
 * the database (file-backed SQLite or PostgreSQL) as the configuration names it.
 */
import { createBackend } from '@backstage/backend-defaults';
import { infraDeliveryPlugin } from '../../plugin';

const backend = createBackend();
backend.add(infraDeliveryPlugin);
backend.start();
