/**
 * Writes `schemas/dqform.schema.json`, the JSON Schema of `dqform.yaml` generated from the zod
 * schemas (`npm run schema`). A test fails when the committed file is stale.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dqformJsonSchema } from '../model/dqform-yaml';

/** The file's text: 2-space JSON and a final newline. */
export function dqformJsonSchemaText(): string {
  return `${JSON.stringify(dqformJsonSchema(), null, 2)}\n`;
}

/** Where the schema is committed. */
export const DQFORM_JSON_SCHEMA_FILE = path.join(__dirname, '..', 'dqform.schema.json');

if (require.main === module) {
  fs.writeFileSync(DQFORM_JSON_SCHEMA_FILE, dqformJsonSchemaText());
  process.stdout.write(`wrote ${path.relative(process.cwd(), DQFORM_JSON_SCHEMA_FILE)}\n`);
}
