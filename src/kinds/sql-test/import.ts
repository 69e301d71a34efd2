/** Import rendering of a SQL test: the tests' platform messages (`notNullTest: { columnNames }`) read back in dqform's shape. */
import { sqlTestFromWire } from '../../../schemas/platform/sql-tests';
import type { ImportRendering } from '../shared/import';
import type { Json } from '../shared/yaml';

export const sqlTestImport: ImportRendering = {
  fromLive: (raw) => sqlTestFromWire(raw).value as Json,
};
