// The back office's rules that need no browser, in process: the payroll CSV (parsing, each bad row's reason, totals
// and fees per wallet, the results file), amounts and times as the merchants read them, the scope rules, the phone
// rules (the same as the gateway's), and both languages having every text.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { en } from '../../console/src/locales/en.js';
import { fr } from '../../console/src/locales/fr.js';
import { formatDateTime, formatMoney, plainSpaces } from '../../console/src/lib/format.js';
import { feeOf, previewPayroll, resultsCsv, TEMPLATE_CSV } from '../../console/src/lib/payroll.js';
import {
  nationalNumber,
  walletForPhone as consoleWallet,
  isValidRecipientFor as consoleRecipient,
  WALLETS,
} from '../../console/src/lib/phone.js';
import { filterFrom, searchField } from '../../console/src/lib/payment-search.js';
import { mayApprove, mayDo, mayVisit, readClaims, type Scope } from '../../console/src/lib/scopes.js';
import { isValidRecipientFor, walletForPhone } from '../../src/upstream/phone-rules.js';
import type { Wallet } from '../../src/upstream/types.js';

const csv = (...rows: string[]) => ['ext_id,telephone,montant,portefeuille', ...rows].join('\n');

describe('payroll CSV', () => {
  it('names each bad row with its reason: the operator’s phone rule, an amount below 100, a duplicate ext_id', () => {
    const preview = previewPayroll(
      csv(
        'a,70 12 34 56,2500,',
        'b,70123457,2500,OPA_BF',
        'c,+226 76 00 00 00,99,',
        'a,58000000,1000,',
        'd,12345678,1000,',
        'e,70000000,12.5,',
        'f,70000000,100,OPX',
      ),
      100,
    );
    expect(preview.fileProblem).toBeNull();
    expect(preview.rows.map((r) => [r.line, r.phone, r.amount, r.wallet])).toEqual([[2, '70123456', 2500, 'OPB_BF']]);
    expect(preview.bad.map((b) => [b.line, b.problems])).toEqual([
      [3, [{ reason: 'phone_rule', wallet: 'OPA_BF' }]],
      [4, [{ reason: 'amount_min' }]],
      [5, [{ reason: 'ext_id_duplicate', firstLine: 2 }]],
      [6, [{ reason: 'phone_unknown' }]],
      [7, [{ reason: 'amount_invalid' }]],
      [8, [{ reason: 'wallet_unknown', wallet: 'OPX' }]],
    ]);
  });

  it('totals amounts and fees per wallet in integers, the fee rounded up per item', () => {
    expect(feeOf(2500, 100)).toBe(25);
    expect(feeOf(150, 100)).toBe(2); // 1.5 rounded up
    expect(feeOf(100, 0)).toBe(0);
    const preview = previewPayroll(csv('1,70000000,150,', '2,70000001,2500,', '3,0196000000,1 000,', '4,76000000,100,OPA_BF'), 100);
    expect(preview.totals).toEqual([
      { wallet: 'OPA_BF', items: 1, amount: 100, fees: 1, total: 101 },
      { wallet: 'OPB_BF', items: 2, amount: 2650, fees: 27, total: 2677 },
      { wallet: 'OPE_BJ', items: 1, amount: 1000, fees: 10, total: 1010 },
    ]);
  });

  it('reads English headers, a byte-order mark and CRLF lines; says when columns or rows are missing', () => {
    expect(previewPayroll('\uFEFFreference,phone,amount\r\nx,70000000,500\r\n', 100).rows).toHaveLength(1);
    expect(previewPayroll('name,value\nx,1\n', 100).fileProblem).toBe('columns');
    expect(previewPayroll('', 100).fileProblem).toBe('empty');
    expect(previewPayroll('telephone,montant\n', 100).fileProblem).toBe('empty');
  });

  it('offers a template that passes its own check', () => {
    const preview = previewPayroll(TEMPLATE_CSV, 100);
    expect(preview.bad).toEqual([]);
    expect(preview.rows).toHaveLength(3);
  });

  it('writes the results file with each item’s status, transfer reference and reason in the page’s language', () => {
    const items = [
      { index: 0, reference: 'a', recipientPhone: '70000000', amount: 500, status: 'SUCCEEDED', transferReference: 'tr_1', failure: null },
      {
        index: 1,
        reference: null,
        recipientPhone: '70000009',
        amount: 500,
        status: 'FAILED',
        transferReference: 'tr_2',
        failure: { code: 'X', message: 'Refused, "sorry"', messageFr: 'Refusé, « désolé »' },
      },
    ];
    const fr = Papa.parse<string[]>(resultsCsv(items, 'fr')).data;
    expect(fr).toEqual([
      ['ligne', 'ext_id', 'telephone', 'montant', 'statut', 'reference_transfert', 'motif'],
      ['1', 'a', '70000000', '500', 'SUCCEEDED', 'tr_1', ''],
      ['2', '', '70000009', '500', 'FAILED', 'tr_2', 'Refusé, « désolé »'],
    ]);
    expect(Papa.parse<string[]>(resultsCsv(items, 'en')).data[2]![6]).toBe('Refused, "sorry"');
  });
});

describe('formatting', () => {
  it('writes amounts as the merchants do, in both languages: 2 500 F CFA, no decimals', () => {
    expect(plainSpaces(formatMoney(2500))).toBe('2 500 F CFA');
    expect(plainSpaces(formatMoney(1_000_000))).toBe('1 000 000 F CFA');
    expect(plainSpaces(formatMoney(100))).toBe('100 F CFA');
  });

  it('writes times in the browser’s time zone: Benin UTC+1, Burkina Faso UTC+0', () => {
    const at = '2026-11-27T08:00:00Z';
    expect(formatDateTime(at, 'fr', 'Africa/Porto-Novo')).toContain('09:00:00');
    expect(formatDateTime(at, 'fr', 'Africa/Ouagadougou')).toContain('08:00:00');
    expect(formatDateTime(at, 'fr', 'Africa/Ouagadougou')).toMatch(/27 nov\.? 2026/);
    expect(formatDateTime(at, 'en', 'Africa/Ouagadougou')).toMatch(/27 Nov 2026/);
    expect(formatDateTime(null, 'fr')).toBe('—');
  });
});

describe('scope rules', () => {
  const token = (claims: object) => `x.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.y`;
  const scopes = (...list: Scope[]) => new Set<Scope>(list);

  it('reads the subject, the known scopes and the expiry of a token; not a JWT: null', () => {
    const claims = readClaims(token({ sub: 'awa', scope: 'payments:read payouts:write openid other', exp: 2_000_000_000 }));
    expect(claims).toEqual({
      sub: 'awa',
      scopes: scopes('payments:read', 'payouts:write'),
      expiresAt: 2_000_000_000_000,
      merchantId: null,
      managesPlatform: false,
    });
    // Platform mode: a merchant's token carries its merchant; an operator's may manage the platform's merchants.
    expect(readClaims(token({ sub: 'awa', scope: 'payments:read', merchant_id: 'mer_a1' }))).toMatchObject({
      merchantId: 'mer_a1',
      managesPlatform: false,
    });
    expect(readClaims(token({ sub: 'ops', scope: 'platform:manage payments:read' }))).toMatchObject({
      merchantId: null,
      managesPlatform: true,
      scopes: scopes('payments:read'),
    });
    expect(readClaims('not a token')).toBeNull();
    expect(readClaims(token({ scope: 'payments:read' }))).toBeNull();
  });

  it('offers a page only to a token whose scopes allow it', () => {
    expect(mayVisit(scopes('payments:read'), 'payments')).toBe(true);
    expect(mayVisit(scopes('payments:read'), 'approvals')).toBe(false);
    expect(mayVisit(scopes('payouts:approve'), 'approvals')).toBe(true);
    expect(mayVisit(scopes('payments:read'), 'payroll')).toBe(false);
    expect(mayVisit(scopes('payments:read'), 'developers')).toBe(false);
    expect(mayDo(scopes('payments:read'), 'createSettlement')).toBe(false);
    expect(mayDo(scopes('settlements:write'), 'cancelSettlement')).toBe(true);
    expect(mayDo(scopes('payments:read'), 'live')).toBe(false);
  });

  it('offers approval only to another person holding payouts:approve, while the batch awaits it', () => {
    const batch = { awaitingApproval: true, createdBy: 'awa', startedBy: 'awa' };
    expect(mayApprove({ sub: 'moussa', scopes: scopes('payouts:approve') }, batch)).toBe(true);
    expect(mayApprove({ sub: 'awa', scopes: scopes('payouts:approve') }, batch)).toBe(false);
    expect(mayApprove({ sub: 'moussa', scopes: scopes('payouts:approve') }, { ...batch, startedBy: 'moussa' })).toBe(false);
    expect(mayApprove({ sub: 'moussa', scopes: scopes('payouts:write') }, batch)).toBe(false);
    expect(mayApprove({ sub: 'moussa', scopes: scopes('payouts:approve') }, { ...batch, awaitingApproval: false })).toBe(false);
  });
});

describe('payments search', () => {
  it('searches a phone, a charge reference, or else an ext_id, unless told where to search', () => {
    expect(searchField('70 12 34 56', null, 'charges')).toBe('phone');
    expect(searchField('ch_0a1b2c3d4e5f', null, 'charges')).toBe('reference');
    expect(searchField('3f2b8c1e-0d4a-4e5f-9a6b-7c8d9e0f1a2b', null, 'charges')).toBe('reference');
    expect(searchField('commande-42', null, 'charges')).toBe('extId');
    // Digits and dashes look like a phone: the agent says it is an ext_id.
    expect(searchField('2026-0042', null, 'charges')).toBe('phone');
    expect(searchField('2026-0042', 'extId', 'charges')).toBe('extId');
    // Checkouts carry no ext_id: text is a reference there.
    expect(searchField('commande-42', null, 'checkouts')).toBe('reference');
    expect(searchField('commande-42', 'extId', 'checkouts')).toBe('reference');
  });

  it('makes the API filter from the page URL, the search box included', () => {
    expect(filterFrom(new URLSearchParams('type=charges&q=2026-0042&in=extId&status=SUCCESS'))).toEqual({
      extId: '2026-0042',
      status: 'SUCCESS',
    });
    expect(filterFrom(new URLSearchParams('type=charges&q=%2B226 70 12 34 56'))).toEqual({ phone: '70123456' });
    expect(filterFrom(new URLSearchParams('type=checkouts&q=chk_0a1b'))).toEqual({ reference: 'chk_0a1b' });
  });
});

describe('phone rules', () => {
  it('agree with the gateway’s for every two-digit start of 8- and 10-digit numbers', () => {
    const numbers = [...Array(100).keys()].flatMap((n) => {
      const two = String(n).padStart(2, '0');
      return [`${two}000000`, `01${two}000000`, `${two}00000`];
    });
    for (const phone of numbers) {
      expect(consoleWallet(phone), phone).toBe(walletForPhone(phone)?.toUpperCase() ?? null);
      for (const wallet of WALLETS)
        expect(consoleRecipient(wallet, phone), `${wallet} ${phone}`).toBe(isValidRecipientFor(wallet.toLowerCase() as Wallet, phone));
    }
  });

  it('reads numbers as typed: spaces, dots, dashes, +226 and 00229', () => {
    expect(nationalNumber('+226 70 12-34.56')).toBe('70123456');
    expect(nationalNumber('00229 01 96 00 00 00')).toBe('0196000000');
  });
});

describe('languages', () => {
  const keys = (o: object, prefix = ''): string[] =>
    Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]));

  it('has every text in French and in English, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(fr).sort());
    const values = (o: object): string[] => Object.values(o).flatMap((v) => (typeof v === 'object' ? values(v as object) : [v as string]));
    expect([...values(fr), ...values(en)].filter((v) => v.trim() === '')).toEqual([]);
  });
});
