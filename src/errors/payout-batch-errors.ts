// The typed errors of payout batches (English and French), declared like the other PaymentErrors
// (src/errors/typed-errors.ts). Plain data, like them.
import type { Wallet } from '../upstream/types.js';
import { operatorName } from './operators.js';
import { typedError } from './typed-errors.js';

export const PayoutBatchNotFoundError = typedError({
  name: 'PayoutBatchNotFoundError',
  description: 'No payout batch has this id.',
  code: 'NOT_FOUND',
  fields: (batchId: string) => ({ batchId }),
  graphql: { batchId: { type: 'String', description: 'The id that was looked up.' } },
  text: () => ({ en: 'No payout batch has this id.', fr: 'Aucun lot de paiements ne porte cet identifiant.' }),
});

const STATUS_FR: Record<string, string> = {
  DRAFT: 'brouillon',
  QUEUED: 'en file d’attente',
  RUNNING: 'en cours',
  PAUSED: 'en pause',
  CANCELLING: 'en cours d’annulation',
  COMPLETED: 'terminé',
  COMPLETED_WITH_FAILURES: 'terminé avec des échecs',
  CANCELLED: 'annulé',
};

type StateProblem = 'not_draft' | 'empty' | 'final' | 'not_awaiting_approval' | 'page_incomplete';

function stateText(batchStatus: string, reason: StateProblem): { en: string; fr: string } {
  const en = batchStatus.toLowerCase().replace(/_/g, ' ');
  const fr = STATUS_FR[batchStatus] ?? batchStatus;
  return {
    not_draft: {
      en: `Items can only be added to a draft batch; this one is ${en}.`,
      fr: `On ne peut ajouter des paiements qu’à un lot en brouillon ; celui-ci est ${fr}.`,
    },
    empty: {
      en: 'The batch holds no items: add at least one page before starting it.',
      fr: 'Le lot ne contient aucun paiement : ajoutez au moins une page avant de le lancer.',
    },
    final: { en: `The batch is ${en}: it can no longer change.`, fr: `Le lot est ${fr} : il ne peut plus changer.` },
    not_awaiting_approval: { en: 'The batch is not waiting for an approval.', fr: 'Le lot n’attend pas d’approbation.' },
    page_incomplete: {
      en: 'A page of this batch was not fully saved: send that page again (same number, same items), then start.',
      fr: 'Une page de ce lot n’a pas été entièrement enregistrée : renvoyez cette page (même numéro, mêmes paiements), puis lancez le lot.',
    },
  }[reason];
}

/** The batch is not in a state that allows this (e.g. adding items to a started batch). */
export const PayoutBatchStateError = typedError({
  name: 'PayoutBatchStateError',
  description: 'The batch is not in a state that allows this.',
  code: 'PAYOUT_BATCH_STATE',
  fields: (batchStatus: string, reason: StateProblem) => ({ batchStatus, reason }),
  graphql: { batchStatus: { type: 'PayoutBatchStatus', description: 'The batch’s status now.' } },
  text: ({ batchStatus, reason }) => stateText(batchStatus, reason),
});

export const PayoutBatchFullError = typedError({
  name: 'PayoutBatchFullError',
  description: 'The page would take the batch over PAYOUT_BATCH_MAX_ITEMS; nothing of it was added.',
  code: 'BATCH_SIZE_LIMIT_EXCEEDED',
  fields: (limit: number, wouldHold: number) => ({ limit, wouldHold }),
  graphql: { limit: { type: 'Int', description: 'The most items a batch may hold.' } },
  text: ({ limit, wouldHold }) => ({
    en: `A payout batch holds at most ${limit} items; this page would bring it to ${wouldHold}. Start another batch for the rest.`,
    fr: `Un lot contient au plus ${limit} paiements ; cette page le porterait à ${wouldHold}. Créez un autre lot pour le reste.`,
  }),
});

/** A wallet that cannot cover its items: what they need (amounts and fees), what it holds, and the difference. */
export interface WalletShortfall {
  wallet: Wallet;
  /** Amounts plus fees of the items still to send from this wallet. */
  required: number;
  available: number;
  shortfall: number;
}

export const PayoutBatchShortfallError = typedError({
  name: 'PayoutBatchShortfallError',
  description: 'Some wallets cannot cover the batch; nothing was started.',
  code: 'INSUFFICIENT_FUNDS',
  fields: (shortfalls: WalletShortfall[]) => ({ shortfalls }),
  graphql: { shortfalls: { type: '[PayoutBatchShortfall]', description: 'What each short wallet lacks.' } },
  text: ({ shortfalls }) => {
    const en = shortfalls.map((s) => `${operatorName(s.wallet).en} lacks ${s.shortfall} XOF`).join('; ');
    const fr = shortfalls.map((s) => `il manque ${s.shortfall} XOF sur ${operatorName(s.wallet).fr}`).join(' ; ');
    return {
      en: `The wallets cannot cover this batch (${en}). Top them up, or start with sendWhatFits to send only what they cover.`,
      fr: `Les portefeuilles ne couvrent pas ce lot (${fr}). Approvisionnez-les, ou lancez avec sendWhatFits pour n’envoyer que ce qu’ils couvrent.`,
    };
  },
});

export const SelfApprovalError = typedError({
  name: 'SelfApprovalError',
  description: 'The creator or starter of a batch cannot approve it.',
  code: 'SELF_APPROVAL_FORBIDDEN',
  text: () => ({
    en: 'A batch must be approved by someone other than the person who created or started it.',
    fr: 'Le lot doit être approuvé par une autre personne que celle qui l’a créé ou lancé.',
  }),
});

/** A payout the service accepted and the operator then could not deliver (its money went back to the wallet). */
export const TransferFailedError = typedError({
  name: 'TransferFailedError',
  description: 'The operator could not deliver the transfer.',
  code: 'TRANSFER_FAILED',
  text: () => ({
    en: 'The operator could not deliver this transfer; its amount and fees went back to the wallet.',
    fr: 'L’opérateur n’a pas pu livrer ce transfert ; le montant et les frais sont revenus sur le portefeuille.',
  }),
});

/** Each declared error is also the type of its instances (as a class would be). */
export type PayoutBatchNotFoundError = InstanceType<typeof PayoutBatchNotFoundError>;
export type PayoutBatchStateError = InstanceType<typeof PayoutBatchStateError>;
export type PayoutBatchFullError = InstanceType<typeof PayoutBatchFullError>;
export type PayoutBatchShortfallError = InstanceType<typeof PayoutBatchShortfallError>;
export type SelfApprovalError = InstanceType<typeof SelfApprovalError>;
export type TransferFailedError = InstanceType<typeof TransferFailedError>;

/** Every typed error of payout batches: their GraphQL types are made in src/schema/payout-batch.ts, which holds their enums. */
export const PAYOUT_BATCH_ERRORS = [
  PayoutBatchNotFoundError,
  PayoutBatchStateError,
  PayoutBatchFullError,
  PayoutBatchShortfallError,
  SelfApprovalError,
  TransferFailedError,
] as const;
