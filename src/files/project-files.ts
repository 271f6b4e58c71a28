// Files the gateway reads at run time that are not compiled code: the client
// kit's documents (GraphiQL's tabs) and its trusted-documents manifest. They sit
// at the project root, which is two levels above this module when it runs from
// src/files/ (tsx), three above from dist/src/files/ and two or three above from
// the bundle (dist/bundle/ or its chunks/: npm start): the root is the nearest
// folder holding package.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvariantError } from '../errors/internal-error.js';

let root: string | null = null;

function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new InvariantError('project root not found: no package.json above the gateway modules');
    dir = parent;
  }
  return (root = dir);
}

/** A path inside the project, e.g. projectPath('client', 'operations'). */
export const projectPath = (...segments: string[]): string => path.join(projectRoot(), ...segments);
