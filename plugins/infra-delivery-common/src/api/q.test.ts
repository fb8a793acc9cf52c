import { z } from 'zod';
import { operations } from './operations';
it('lists', () => {
  const rows = Object.values(operations).map(
    (o: any) =>
      `${o.operationId} ${
        o.query
          ? o.query instanceof z.ZodObject
            ? 'object:' + Object.keys(o.query.shape).join(',')
            : o.query.constructor.name
          : '-'
      }`,
  );
  console.log(rows.join('\n'));
});
