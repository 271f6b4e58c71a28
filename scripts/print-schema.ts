// Writes schema.graphql from the Pothos schema: the committed file is what
// clients (and codegen) see, and a test fails when it drifts from the code.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchemaSDL } from '../src/schema/print.js';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
writeFileSync(target, printSchemaSDL());
console.log(`wrote ${target}`);
