// The typed errors of payout batches (English and French), beside the other
// PaymentErrors. Plain data, like them.
import type { Wallet } from '../upstream/types.js';
import { operatorName } from './operators.js';
import { PaymentError } from './payment-errors.js';

export class PayoutBatchNotFoundError extends PaymentError {
  override readonly name = 'PayoutBatchNotFoundError';
  readonly code = 'NOT_FOUND' as const;
  readonly messageFr = 'Aucun lot de paiements ne porte cet identifiant.';
  constructor(readonly batchId: string) {
    super('No payout batch has this id.');
  }
}

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

/** The batch is not in a state that allows this (e.g. adding items to a started batch). */
export class PayoutBatchStateError extends PaymentError {
  override readonly name = 'PayoutBatchStateError';
  readonly code = 'PAYOUT_BATCH_STATE' as const;
  readonly messageFr: string;
  constructor(
    readonly status: string,
    readonly reason: 'not_draft' | 'empty' | 'final' | 'not_awaiting_approval' | 'page_incomplete',
  ) {
    const en = {
      not_draft: `Items can only be added to a draft batch; this one is ${status.toLowerCase().replace(/_/g, ' ')}.`,
      empty: 'The batch holds no items: add at least one page before starting it.',
      final: `The batch is ${status.toLowerCase().replace(/_/g, ' ')}: it can no longer change.`,
      not_awaiting_approval: 'The batch is not waiting for an approval.',
      page_incomplete: 'A page of this batch was not fully saved: send that page again (same number, same items), then start.',
    }[reason];
    super(en);
    this.messageFr = {
      not_draft: `On ne peut ajouter des paiements qu’à un lot en brouillon ; celui-ci est ${STATUS_FR[status] ?? status}.`,
      empty: 'Le lot ne contient aucun paiement : ajoutez au moins une page avant de le lancer.',
      final: `Le lot est ${STATUS_FR[status] ?? status} : il ne peut plus changer.`,
      not_awaiting_approval: 'Le lot n’attend pas d’approbation.',
      page_incomplete:
        'Une page de ce lot n’a pas été entièrement enregistrée : renvoyez cette page (même numéro, mêmes paiements), puis lancez le lot.',
    }[reason];
  }
}

export class PayoutBatchFullError extends PaymentError {
  override readonly name = 'PayoutBatchFullError';
  readonly code = 'BATCH_SIZE_LIMIT_EXCEEDED' as const;
  readonly messageFr: string;
  constructor(
    readonly limit: number,
    readonly wouldHold: number,
  ) {
    super(`A payout batch holds at most ${limit} items; this page would bring it to ${wouldHold}. Start another batch for the rest.`);
    this.messageFr = `Un lot contient au plus ${limit} paiements ; cette page le porterait à ${wouldHold}. Créez un autre lot pour le reste.`;
  }
}

export interface WalletShortfall {
  wallet: Wallet;
  /** Amounts plus fees of the items still to send from this wallet. */
  required: number;
  available: number;
  shortfall: number;
}

export class PayoutBatchShortfallError extends PaymentError {
  override readonly name = 'PayoutBatchShortfallError';
  readonly code = 'INSUFFICIENT_FUNDS' as const;
  readonly messageFr: string;
  constructor(readonly shortfalls: WalletShortfall[]) {
    const en = shortfalls.map((s) => `${operatorName(s.wallet).en} lacks ${s.shortfall} XOF`).join('; ');
    const fr = shortfalls.map((s) => `il manque ${s.shortfall} XOF sur ${operatorName(s.wallet).fr}`).join(' ; ');
    super(`The wallets cannot cover this batch (${en}). Top them up, or start with sendWhatFits to send only what they cover.`);
    this.messageFr = `Les portefeuilles ne couvrent pas ce lot (${fr}). Approvisionnez-les, ou lancez avec sendWhatFits pour n’envoyer que ce qu’ils couvrent.`;
  }
}

export class SelfApprovalError extends PaymentError {
  override readonly name = 'SelfApprovalError';
  readonly code = 'SELF_APPROVAL_FORBIDDEN' as const;
  readonly messageFr = 'Le lot doit être approuvé par une autre personne que celle qui l’a créé ou lancé.';
  constructor() {
    super('A batch must be approved by someone other than the person who created or started it.');
  }
}

/** A payout the service accepted and the operator then could not deliver (its money went back to the wallet). */
export class TransferFailedError extends PaymentError {
  override readonly name = 'TransferFailedError';
  readonly code = 'TRANSFER_FAILED' as const;
  readonly messageFr = 'L’opérateur n’a pas pu livrer ce transfert ; le montant et les frais sont revenus sur le portefeuille.';
  constructor() {
    super('The operator could not deliver this transfer; its amount and fees went back to the wallet.');
  }
}
