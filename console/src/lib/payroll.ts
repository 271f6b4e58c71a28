// A payroll from a spreadsheet: the CSV parsed with Papa Parse, each row checked as the gateway will check it
// (the operator's phone rule, an amount of at least 100 XOF, an ext_id used once), and totals and fees per wallet,
// all before anything is sent. Only a file without a bad row may be submitted.
import Papa from 'papaparse';
import { isValidRecipientFor, nationalNumber, walletForPhone, WALLETS, type Wallet } from './phone.js';

export const MIN_AMOUNT = 100;

/** Column names accepted, French or English; the template uses the first of each. */
const COLUMNS = {
  extId: ['ext_id', 'reference', 'référence'],
  phone: ['telephone', 'téléphone', 'phone', 'recipient_phone'],
  amount: ['montant', 'amount'],
  wallet: ['portefeuille', 'wallet', 'recipient_wallet'],
  name: ['nom', 'name'],
} as const;

export const TEMPLATE_CSV = [
  'ext_id,telephone,montant,portefeuille,nom',
  'salaire-2026-11-001,70 12 34 56,75000,,Awa Ouédraogo',
  'salaire-2026-11-002,+226 76 00 00 00,62500,OPA_BF,Moussa Traoré',
  'salaire-2026-11-003,01 96 00 00 00,80000,OPE_BJ,Fatou Adjovi',
  '',
].join('\r\n');

export type RowProblem =
  | { reason: 'phone_missing' }
  | { reason: 'phone_rule'; wallet: Wallet }
  | { reason: 'phone_unknown' }
  | { reason: 'wallet_unknown'; wallet: string }
  | { reason: 'amount_invalid' }
  | { reason: 'amount_min' }
  | { reason: 'ext_id_duplicate'; firstLine: number };

export interface PayrollRow {
  /** The line in the file (the header is line 1). */
  line: number;
  extId: string | null;
  phone: string;
  amount: number;
  wallet: Wallet;
  /** Whether the file named the wallet (else the gateway picks it from the number, as the preview did). */
  walletNamed: boolean;
  name: string | null;
}

export interface BadRow {
  line: number;
  extId: string | null;
  phone: string;
  amount: string;
  problems: RowProblem[];
}

export interface WalletTotal {
  wallet: Wallet;
  items: number;
  amount: number;
  fees: number;
  total: number;
}

export interface PayrollPreview {
  rows: PayrollRow[];
  bad: BadRow[];
  totals: WalletTotal[];
  /** A problem of the file itself (no rows, missing columns). */
  fileProblem: 'empty' | 'columns' | null;
}

/** The fee of one item at `feeBps` basis points, rounded up to the franc (the gateway's rule): integers only. */
export const feeOf = (amount: number, feeBps: number): number => Math.floor((amount * feeBps + 9_999) / 10_000);

function column(headers: string[], names: readonly string[]): string | null {
  return headers.find((h) => names.includes(h.trim().toLowerCase())) ?? null;
}

function checkAmount(raw: string): { amount: number | null; problem: RowProblem | null } {
  const compact = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (!/^\d+$/.test(compact)) return { amount: null, problem: { reason: 'amount_invalid' } };
  const amount = Number(compact);
  if (!Number.isSafeInteger(amount)) return { amount: null, problem: { reason: 'amount_invalid' } };
  return { amount, problem: amount < MIN_AMOUNT ? { reason: 'amount_min' } : null };
}

function checkPhone(
  rawPhone: string,
  rawWallet: string,
): { phone: string; wallet: Wallet | null; named: boolean; problem: RowProblem | null } {
  const phone = nationalNumber(rawPhone);
  const walletText = rawWallet.trim().toUpperCase();
  if (!phone) return { phone, wallet: null, named: false, problem: { reason: 'phone_missing' } };
  if (walletText) {
    if (!(WALLETS as readonly string[]).includes(walletText)) {
      return { phone, wallet: null, named: true, problem: { reason: 'wallet_unknown', wallet: rawWallet.trim() } };
    }
    const wallet = walletText as Wallet;
    return { phone, wallet, named: true, problem: isValidRecipientFor(wallet, phone) ? null : { reason: 'phone_rule', wallet } };
  }
  const wallet = walletForPhone(phone);
  return { phone, wallet, named: false, problem: wallet ? null : { reason: 'phone_unknown' } };
}

function totalsOf(rows: PayrollRow[], feeBps: number): WalletTotal[] {
  const byWallet = new Map<Wallet, WalletTotal>();
  for (const row of rows) {
    const total = byWallet.get(row.wallet) ?? { wallet: row.wallet, items: 0, amount: 0, fees: 0, total: 0 };
    const fee = feeOf(row.amount, feeBps);
    total.items += 1;
    total.amount += row.amount;
    total.fees += fee;
    total.total += row.amount + fee;
    byWallet.set(row.wallet, total);
  }
  return WALLETS.flatMap((wallet) => (byWallet.has(wallet) ? [byWallet.get(wallet)!] : []));
}

/** Parses and checks a payroll file's text. */
export function previewPayroll(text: string, feeBps: number): PayrollPreview {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
  const headers = parsed.meta.fields ?? [];
  const cols = {
    extId: column(headers, COLUMNS.extId),
    phone: column(headers, COLUMNS.phone),
    amount: column(headers, COLUMNS.amount),
    wallet: column(headers, COLUMNS.wallet),
    name: column(headers, COLUMNS.name),
  };
  if (!cols.phone || !cols.amount) return { rows: [], bad: [], totals: [], fileProblem: headers.length ? 'columns' : 'empty' };
  const rows: PayrollRow[] = [];
  const bad: BadRow[] = [];
  const seen = new Map<string, number>();
  parsed.data.forEach((record, index) => {
    const line = index + 2;
    const get = (name: string | null) => (name ? (record[name] ?? '').trim() : '');
    const extId = get(cols.extId) || null;
    const amountCheck = checkAmount(get(cols.amount));
    const phoneCheck = checkPhone(get(cols.phone), get(cols.wallet));
    const problems = [phoneCheck.problem, amountCheck.problem].filter((p): p is RowProblem => p !== null);
    if (extId !== null) {
      const firstLine = seen.get(extId);
      if (firstLine !== undefined) problems.push({ reason: 'ext_id_duplicate', firstLine });
      else seen.set(extId, line);
    }
    if (problems.length || amountCheck.amount === null || !phoneCheck.wallet) {
      bad.push({ line, extId, phone: get(cols.phone), amount: get(cols.amount), problems });
      return;
    }
    rows.push({
      line,
      extId,
      phone: phoneCheck.phone,
      amount: amountCheck.amount,
      wallet: phoneCheck.wallet,
      walletNamed: phoneCheck.named,
      name: get(cols.name) || null,
    });
  });
  if (!rows.length && !bad.length) return { rows, bad, totals: [], fileProblem: 'empty' };
  return { rows, bad, totals: totalsOf(rows, feeBps), fileProblem: null };
}

export interface ResultItem {
  index: number;
  reference: string | null;
  recipientPhone: string;
  amount: number;
  status: string;
  transferReference: string | null;
  failure: { code: string; message: string; messageFr: string } | null;
}

/** The results file: each item's status, transfer reference and reason, in the page's language. */
export function resultsCsv(items: ResultItem[], language: 'fr' | 'en'): string {
  const header =
    language === 'fr'
      ? ['ligne', 'ext_id', 'telephone', 'montant', 'statut', 'reference_transfert', 'motif']
      : ['row', 'ext_id', 'phone', 'amount', 'status', 'transfer_reference', 'reason'];
  const rows = items.map((item) => [
    String(item.index + 1),
    item.reference ?? '',
    item.recipientPhone,
    String(item.amount),
    item.status,
    item.transferReference ?? '',
    item.failure ? (language === 'fr' ? item.failure.messageFr : item.failure.message) : '',
  ]);
  return Papa.unparse({ fields: header, data: rows }, { newline: '\r\n' });
}
