// Sentences other code writes (a library's, the payment service's), read back by template: the sentence as its
// author writes it, `{name}` for each part filled in. A template names its entry and its parameters at once, so the
// French is written from the parameters, never by rewriting the English.

/** An English sentence with `{name}` holes, as the service writes it, to be recognized and said again in French. */
export interface SentenceTemplate {
  /** The sentence, with `{name}` holes. */
  en: string;
}

/** A template made into a pattern that matches the service's sentence and reads its holes by name. */
export interface CompiledTemplate<E extends SentenceTemplate> {
  key: string;
  entry: E;
  pattern: RegExp;
  names: string[];
}

/** A template as a pattern: its text literally, each `{name}` as a group (the shortest that lets the rest match). */
export function compileTemplate<E extends SentenceTemplate>(key: string, entry: E): CompiledTemplate<E> {
  const names: string[] = [];
  const source = entry.en
    .split(/(\{\w+\})/)
    .map((part) => {
      const hole = /^\{(\w+)\}$/.exec(part);
      if (!hole) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(hole[1]!);
      return '([\\s\\S]*?)';
    })
    .join('');
  return { key, entry, pattern: new RegExp(`^${source}$`), names };
}

/** Compiles every template of a table, each under its key. */
export const compileTemplates = <E extends SentenceTemplate>(table: Readonly<Record<string, E>>): Array<CompiledTemplate<E>> =>
  Object.entries(table).map(([key, entry]) => compileTemplate(key, entry));

/** The parameters of `sentence` if it is written from `template`'s entry, else null. */
export function readTemplate<E extends SentenceTemplate>(sentence: string, template: CompiledTemplate<E>): Record<string, string> | null {
  const m = template.pattern.exec(sentence);
  return m ? Object.fromEntries(template.names.map((name, i) => [name, m[i + 1]!])) : null;
}

/** `template` with its holes filled. */
export const fillTemplate = (template: string, params: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
