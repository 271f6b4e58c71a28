// Reads the Prometheus text exposition format (what GET /metrics answers)
// into samples the tests can compare: name, labels, value.
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface ParsedMetrics {
  text: string;
  /** Samples of one series name (e.g. `x_total`, `x_seconds_count`), in the order served. */
  samples(name: string): Sample[];
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): ParsedMetrics {
  const all: Array<Sample & { name: string }> = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(LABEL))
      labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    all.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { text, samples: (name) => all.filter((s) => s.name === name).map(({ labels, value }) => ({ labels, value })) };
}

export function sample(labels: Record<string, string>, value: number): Sample {
  return { labels, value };
}
