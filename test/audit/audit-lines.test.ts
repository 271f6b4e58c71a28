// One place writes the audit line (src/audit/audit-lines.ts): no other module of src/ writes one, and what the
// writer is handed beyond its listed facts (a phone number, a client token in a payload) never reaches the line.
// The lines themselves are checked where they are written for real: test/schema/payout-batch.test.ts (approval
// and a batch's end), test/http/http-auth.test.ts and test/http/client-address.test.ts (attempts).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { auditApprovalLine, auditAttemptLine, auditBatchEndLine } from '../../src/audit/audit-lines.js';
import { createLogger } from '../../src/logger.js';

const root = fileURLToPath(new URL('../../src/', import.meta.url));
const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });

function collected() {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger('info', { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

describe('the audit writer', () => {
  it('is the only module of src/ that writes an audit line', () => {
    const writers = walk(root)
      .filter((file) => /audit: true|\.info\(\s*'audit'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(writers).toEqual(['audit/audit-lines.ts']);
  });

  it('an attempt: who, the references and the amount; never the phone or a token it was handed', () => {
    const { log, lines } = collected();
    const who = { log, principal: { subject: 'alice', kind: 'staff' }, clientIp: '203.0.113.9', requestId: 'req-1' };
    auditAttemptLine(who, 'createCharge', {
      arg: { amount: 1500, phone: '70123456', provider: 'OPB_BF' },
      payload: { reference: 'ch_1', clientToken: 'eyJhbGciOi.secret.part' },
      outcome: 'success',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'audit',
      audit: true,
      subject: 'alice',
      principalKind: 'staff',
      clientIp: '203.0.113.9',
      requestId: 'req-1',
      operation: 'createCharge',
      references: ['ch_1'],
      amount: 1500,
      outcome: 'success',
    });
    expect(JSON.stringify(lines[0])).not.toMatch(/70123456|eyJhbGciOi/);
  });

  it('a bulk transfer counts its items and sums its amounts (integers)', () => {
    const { log, lines } = collected();
    auditAttemptLine({ log, principal: null, clientIp: null, requestId: 'r' }, 'createBulkTransfer', {
      arg: {
        transfers: [
          { amount: 100, recipientPhone: '70000000' },
          { amount: 250, recipientPhone: '70000001' },
        ],
      },
      outcome: 'UNAUTHENTICATED',
    });
    expect(lines[0]).toMatchObject({ subject: null, amount: 350, items: 2, outcome: 'UNAUTHENTICATED' });
    expect(JSON.stringify(lines[0])).not.toMatch(/7000000/);
  });

  it('an approval names both people; a batch’s end its counts and everyone who took part', () => {
    const { log, lines } = collected();
    auditApprovalLine(
      { log, principal: { subject: 'bob', kind: 'staff' }, clientIp: '::1', requestId: 'r2' },
      { batchId: 'pb_1', createdBy: 'alice', startedBy: 'carol' },
    );
    auditBatchEndLine(
      log,
      {
        id: 'pb_1',
        createdBy: 'alice',
        startedBy: 'carol',
        approval: { approvedBy: 'bob' },
        cancelledBy: null,
        counts: { added: { items: 3, amount: 4500 }, succeeded: { items: 2 }, failed: { items: 1 }, notSent: { items: 0 } },
      },
      'COMPLETED_WITH_FAILURES',
    );
    expect(lines[0]).toMatchObject({
      operation: 'approvePayoutBatch',
      subject: 'bob',
      references: ['pb_1'],
      outcome: 'approved: created by alice, started by carol, approved by bob',
    });
    expect(lines[1]).toMatchObject({
      audit: true,
      operation: 'payoutBatchCompleted',
      subject: 'alice',
      startedBy: 'carol',
      approvedBy: 'bob',
      cancelledBy: null,
      references: ['pb_1'],
      items: 3,
      amount: 4500,
      succeeded: 2,
      failed: 1,
      notSent: 0,
      outcome: 'COMPLETED_WITH_FAILURES',
    });
  });
});
