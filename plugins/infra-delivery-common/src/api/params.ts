import { z } from 'zod';
import { idSchema } from '../schemas';

/** `{id}` in a path. */
export const idParamsSchema = z.object({ id: idSchema });
