// The types of scripts/build-console.mjs, for the test set-up that builds the console once per run (test/compile-once.ts).
export const CONSOLE_OUTDIR: string;
export function consoleUpToDate(): boolean;
export function buildConsole(options?: { force?: boolean }): Promise<boolean>;
