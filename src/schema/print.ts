import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.js';

/** The SDL of the public schema, sorted so that moving code around does not reorder the file. */
export function printSchemaSDL(): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
