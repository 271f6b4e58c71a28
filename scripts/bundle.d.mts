// The types of scripts/bundle.mjs, for the test set-up that bundles the programs tests start (test/compile-once.ts).
import type { Metafile } from 'esbuild';

export function bundle(entries: Record<string, string>, outdir: string): Promise<Metafile>;
