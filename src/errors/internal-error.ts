// The one base of the errors the gateway raises inside itself (what a client sees is the catalogue's:
// top-level.ts, typed-errors.ts). Like undici's errors, every class carries a stable `code` that log lines and
// callers may branch on, and `cause` when it wraps another failure. A leaf: it imports nothing, so every layer,
// the bottom one included, may extend it (eslint.config.js lets each folder import this file and no other of
// errors/). ESLint refuses `class … extends Error` outside src/errors/ and a bare `throw new Error` in src/.

/** An error of the gateway's own making. */
export abstract class InternalError extends Error {
  /** Stable for the class (or, for a class that wraps a family of failures, for each of its cases). */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A caller handed a value the function cannot work with (a programming or wiring mistake, never a client's). */
export class InvalidArgumentError extends InternalError {
  readonly code = 'INVALID_ARGUMENT';
}

/** Something the code relies on did not hold (a document that vanished, a table written twice). */
export class InvariantError extends InternalError {
  readonly code = 'INVARIANT_BROKEN';
}

/** Used after close(): the resource no longer serves. */
export class ClosedError extends InternalError {
  readonly code = 'CLOSED';
}
