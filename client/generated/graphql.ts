/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** One page of items (at most 500). */
export type AddPayoutBatchItemsInput = {
  /** The draft batch. */
  batchId: string | number;
  /** The items, 1 to 500. */
  items: Array<PayoutBatchItemInput>;
  /** The page’s number (1, 2, …): sending the same page again (a retry) adds nothing more; another page under a used number is refused. */
  page: number;
};

/** The batch to approve. */
export type ApprovePayoutBatchInput = {
  /** The batch. */
  batchId: string | number;
};

/** One payout of a bulk transfer. The bulk's idempotency key covers every item. */
export type BulkTransferItemInput = {
  /** Amount in XOF the recipient receives, at least 100. Fees are debited on top. */
  amount: number;
  /** Your own reference for this payout (at most 100 characters, unique: the service refuses an ext_id it has seen). */
  extId?: string | null | undefined;
  /** Recipient phone number as typed (national, or with +226/00226 or +229/00229; spaces, dots and dashes are fine). */
  recipientPhone: string;
  /** Wallet to pay from; by default the one matching the recipient's operator. */
  recipientWallet?: Wallet | null | undefined;
};

/** The batch to cancel. */
export type CancelPayoutBatchInput = {
  /** The batch. */
  batchId: string | number;
};

/** Narrows the charge list. All conditions must hold. */
export type ChargeFilter = {
  /** Amount at most this, in XOF. */
  amountMax?: number | null | undefined;
  /** Amount at least this, in XOF. */
  amountMin?: number | null | undefined;
  /** Created on or after this day. */
  dateFrom?: string | null | undefined;
  /** Created on or before this day. */
  dateTo?: string | null | undefined;
  /** Exactly this external id of yours. It finds the charges the gateway has created or seen (made through it, or announced by a webhook, fetched or listed through it since), within the event retention (EVENT_RETENTION_HOURS), at most 20 per ext_id, each confirmed at the service before it is answered: the service itself cannot search by ext_id. */
  extId?: string | null | undefined;
  /** This customer phone only. */
  phone?: string | null | undefined;
  /** This operator only. */
  provider?: Provider | null | undefined;
  /** Exactly this charge reference. */
  reference?: string | null | undefined;
  /** PENDING, SUCCESS or FAILED (the service filters on these three; PENDING includes charges awaiting confirmation). */
  status?: ChargeStatus | null | undefined;
};

/** What the customer must do next to complete a charge. */
export type ChargeNextAction =
  /** The customer confirms on the phone (USSD prompt); no OTP. Follow the outcome with chargeUpdated or by query. */
  | 'CONFIRM_ON_PHONE'
  /** The customer dials the USSD code in displayText to get an OTP, then you call submitChargeOtp. */
  | 'DIAL_USSD_THEN_ENTER_OTP'
  /** The customer received an OTP by SMS: collect it and call submitChargeOtp. */
  | 'ENTER_OTP'
  /** Nothing: the charge already reached a final state. */
  | 'NONE';

/** Where a charge stands. */
export type ChargeStatus =
  /** Cancelled. */
  | 'CANCELED'
  /** The payment failed. */
  | 'FAILED'
  /** Waiting for the customer to confirm on the phone; the outcome arrives by itself. */
  | 'PAY_OFFLINE'
  /** Being processed by the operator. */
  | 'PENDING'
  /** Waiting for the OTP the customer received (submit it with submitChargeOtp). */
  | 'SEND_OTP'
  /** Paid. */
  | 'SUCCESS';

/** Narrows the checkout list. All conditions must hold. The gateway applies them (the service lists checkouts unfiltered), with one call to the service per operation whatever the filter. */
export type CheckoutFilter = {
  /** Amount at most this, in XOF. */
  amountMax?: number | null | undefined;
  /** Amount at least this, in XOF. */
  amountMin?: number | null | undefined;
  /** Created on or after this day (UTC). */
  dateFrom?: string | null | undefined;
  /** Created on or before this day (UTC). */
  dateTo?: string | null | undefined;
  /** This paying phone only (as the service lists it). */
  phone?: string | null | undefined;
  /** Paid (or attempted) with this operator only. */
  provider?: Provider | null | undefined;
  /** Exactly this checkout (UUID or `chk_…` form). */
  reference?: string | null | undefined;
  /** This status only. */
  status?: CheckoutStatus | null | undefined;
};

/** Where a checkout stands. */
export type CheckoutStatus =
  /** The payment failed. */
  | 'FAILED'
  /** Awaiting payment. */
  | 'PENDING'
  /** Paid. */
  | 'SUCCESS';

/** How the customer confirms a charge (only OPB_BF offers a choice). */
export type ConfirmationMethod =
  /** The customer receives an OTP, which you submit. */
  | 'OTP'
  /** The customer dials a USSD code and confirms on the phone; no OTP. */
  | 'USSD';

/** Up to 100 payouts in one request. */
export type CreateBulkTransferInput = {
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
  /** The payouts, at most 100. */
  transfers: Array<BulkTransferItemInput>;
};

/** Who pays, how much, with which operator. */
export type CreateChargeInput = {
  /** Amount in XOF, a positive whole number. */
  amount: number;
  /** OPB_BF only: USSD to confirm on the phone instead of an OTP. */
  confirmationMethod?: ConfirmationMethod | null | undefined;
  /** Your own reference for this payment (at most 100 characters). */
  extId?: string | null | undefined;
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
  /** Customer phone as typed: national (8 digits in Burkina Faso, 10 in Benin) or with +226/00226 or +229/00229; spaces, dots and dashes are fine. Sent to the service in national form. */
  phone: string;
  /** The customer's operator. */
  provider: Provider;
};

/** A merchant of the platform, with its own account at the service. */
export type CreateMerchantInput = {
  /** Its secret API key at the service (`sk_test_…` / `sk_live_…`); stored encrypted. */
  apiKey: string;
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
  /** Its name, 1 to 200 characters. */
  name: string;
  /** The secret the service signs its webhooks with; stored encrypted. */
  webhookSecret: string;
};

/** A new, empty draft batch. */
export type CreatePayoutBatchInput = {
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. The batch's items derive their ext_ids from it. */
  idempotencyKey: string;
  /** Your name for the batch (e.g. "Salaries March"), at most 200 characters. */
  label: string;
  /** Once started, the batch waits for approvePayoutBatch by someone else (four eyes), as under PAYOUT_BATCH_APPROVAL=required. It can only add that rule: false never waives PAYOUT_BATCH_APPROVAL=required. */
  requireApproval?: boolean | null | undefined;
};

/** How much to settle. */
export type CreateSettlementInput = {
  /** Amount in XOF, from the Collection Balance. */
  amount: number;
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
};

/** One payout. */
export type CreateTransferInput = {
  /** Amount in XOF the recipient receives, at least 100. Fees are debited on top. */
  amount: number;
  /** Your own reference for this payout (at most 100 characters, unique: the service refuses an ext_id it has seen). */
  extId?: string | null | undefined;
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
  /** Recipient phone number as typed (national, or with +226/00226 or +229/00229; spaces, dots and dashes are fine). */
  recipientPhone: string;
  /** Wallet to pay from; by default the one matching the recipient's operator. */
  recipientWallet?: Wallet | null | undefined;
};

/** A new endpoint. */
export type CreateWebhookEndpointInput = {
  /** Your note, at most 500 characters. */
  description?: string | null | undefined;
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
  /** Event kinds to send (see webhookEventKinds); empty or absent: every kind. */
  kinds?: Array<string> | null | undefined;
  /** Where to POST events: https:// (http:// in sandbox mode); a public address in live mode. */
  url: string;
};

/** Every error code of the payment service, plus those the gateway adds. */
export type ErrorCode =
  | 'BATCH_SIZE_LIMIT_EXCEEDED'
  | 'CHARGE_NOT_FOUND'
  | 'EXTERNAL_API_ERROR'
  | 'FORBIDDEN'
  | 'IDEMPOTENCY_CONFLICT'
  | 'INSUFFICIENT_FUNDS'
  | 'INTERNAL_ERROR'
  | 'INVALID_ACCOUNT'
  | 'INVALID_DATA'
  | 'INVALID_WEBHOOK_URL'
  | 'MERCHANT_OFFBOARDED'
  | 'MERCHANT_SUSPENDED'
  | 'NETWORK_ERROR'
  | 'NOT_FOUND'
  | 'OTP_EXPIRED'
  | 'OTP_INVALID'
  | 'OTP_STILL_VALID'
  | 'PAYMENT_ACCOUNT_MISSING'
  | 'PAYOUT_BATCH_STATE'
  | 'RATE_LIMIT_EXCEEDED'
  | 'SELF_APPROVAL_FORBIDDEN'
  | 'SERVICE_UNAVAILABLE'
  | 'SETTLEMENT_NOT_CANCELLABLE'
  | 'TRANSACTION_NOT_FOUND'
  | 'TRANSFER_FAILED'
  | 'UNAUTHENTICATED'
  | 'UNAUTHORIZED_CHARGE_PROVIDER'
  | 'UNKNOWN_ERROR'
  | 'UNSUPPORTED_PROVIDER'
  | 'UPSTREAM_UNAVAILABLE'
  | 'VALIDATION_FAILED'
  | 'WEBHOOKS_UNAVAILABLE'
  | 'WEBHOOK_ENDPOINT_LIMIT';

/** Where an event came from. */
export type EventSource =
  /** Synthesized by the gateway: it fetched a resource no webhook had moved for a while and found it changed (or stuck). */
  | 'POLL'
  /** A verified webhook from the payment service. */
  | 'WEBHOOK';

/** What the hosted payment page collects, and where it sends the customer afterwards. */
export type InitializeCheckoutInput = {
  /** Amount in XOF, a positive whole number. */
  amount: number;
  /** Absolute http(s) URL the customer returns to after cancelling. */
  cancelUrl: string;
  /** Customer email, optional. */
  email?: string | null | undefined;
  /** Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours. */
  idempotencyKey: string;
  /** Absolute http(s) URL the customer returns to after paying. */
  successUrl: string;
};

/** Where a merchant of the platform stands. */
export type MerchantStatus =
  /** Serves everything. */
  | 'ACTIVE'
  /** Refuses everything; its data is purged after MERCHANT_OFFBOARD_GRACE. */
  | 'OFFBOARDED'
  /** Reads still answer; money moves are refused (MerchantSuspendedError). */
  | 'SUSPENDED';

/** The merchant leaving the platform. */
export type OffboardMerchantInput = {
  /** The merchant’s id (its global ID, or `mer_…`). */
  merchantId: string | number;
};

/** Kind of payout account a settlement goes to. */
export type PayoutAccountType =
  | 'BANK'
  | 'MOBILE'
  | 'USDT';

/** Narrows the list of payout batches. */
export type PayoutBatchFilter = {
  /** This status only. */
  status?: PayoutBatchStatus | null | undefined;
};

/** Narrows the items of a batch. All conditions must hold. */
export type PayoutBatchItemFilter = {
  /** This status only. */
  status?: PayoutBatchItemStatus | null | undefined;
  /** The item paid by this transfer. */
  transferReference?: string | null | undefined;
};

/** One payout of a batch, checked like a single transfer. */
export type PayoutBatchItemInput = {
  /** Amount in XOF the recipient receives, at least 100. Fees are debited on top. */
  amount: number;
  /** Recipient phone number. */
  recipientPhone: string;
  /** Wallet to pay from; by default the one matching the recipient's operator. */
  recipientWallet?: Wallet | null | undefined;
  /** Your own reference for this item (at most 100 characters), shown with it. */
  reference?: string | null | undefined;
};

/** Where one item of a payout batch stands. */
export type PayoutBatchItemStatus =
  /** Refused by the service, or the transfer failed (see failure). */
  | 'FAILED'
  /** Never sent: the batch was cancelled, or the wallet could not cover it. */
  | 'NOT_SENT'
  /** Not sent yet (or sent and not yet answered). */
  | 'PENDING'
  /** Accepted by the service; the transfer is on its way. */
  | 'QUEUED'
  /** Paid. */
  | 'SUCCEEDED';

/** Where a payout batch stands. */
export type PayoutBatchStatus =
  /** Cancelled, and every item sent has reached its end (succeeded or failed); the rest is NOT_SENT. Final: no count changes again. */
  | 'CANCELLED'
  /** Cancelled: nothing more is sent; items already sent (or whose chunk was on its way) are followed to their end, and the counts still grow. Not final. */
  | 'CANCELLING'
  /** Every item was paid. */
  | 'COMPLETED'
  /** Finished; some items failed or were not sent. */
  | 'COMPLETED_WITH_FAILURES'
  /** Being filled; nothing is sent. */
  | 'DRAFT'
  /** A wallet ran dry mid-batch: top it up and start the batch again to send the rest. */
  | 'PAUSED'
  /** Started (or waiting for its approval, see awaitingApproval); a replica will run it. */
  | 'QUEUED'
  /** Chunks are being sent, paced under the service’s rate. */
  | 'RUNNING';

/** Mobile-money operator. *_BF: Burkina Faso; *_BJ: Benin. */
export type Provider =
  | 'OPA_BF'
  | 'OPB_BF'
  | 'OPC_BF'
  | 'OPD_BF'
  | 'OPE_BJ'
  | 'OPF_BJ';

/** The merchant’s new API key. */
export type RotateMerchantApiKeyInput = {
  /** The new secret API key (`sk_test_…` / `sk_live_…`); stored encrypted. */
  apiKey: string;
  /** The merchant’s id (its global ID, or `mer_…`). */
  merchantId: string | number;
};

/** Narrows the settlement list. All conditions must hold. The gateway applies them (the service lists settlements unfiltered), with one call to the service per operation whatever the filter. */
export type SettlementFilter = {
  /** Amount at most this, in XOF. */
  amountMax?: number | null | undefined;
  /** Amount at least this, in XOF. */
  amountMin?: number | null | undefined;
  /** Requested on or after this day (UTC). */
  dateFrom?: string | null | undefined;
  /** Requested on or before this day (UTC). */
  dateTo?: string | null | undefined;
  /** Exactly this settlement reference. */
  reference?: string | null | undefined;
  /** This status only. */
  status?: SettlementStatus | null | undefined;
};

/** Where a settlement stands. */
export type SettlementStatus =
  /** Cancelled before it left. */
  | 'CANCELLED'
  /** On its way to the payout account. */
  | 'IN_TRANSIT'
  /** Accepted; can still be cancelled. */
  | 'PROCESSING'
  /** Arrived. */
  | 'SUCCESS';

/** Starts (or resumes) a batch. */
export type StartPayoutBatchInput = {
  /** The batch. */
  batchId: string | number;
  /** When a wallet cannot cover its items: send those it covers (in index order) and report the rest NOT_SENT, instead of refusing. */
  sendWhatFits?: boolean | null | undefined;
};

/** Which merchant, and whether it is suspended or reinstated. */
export type SuspendMerchantInput = {
  /** The merchant’s id (its global ID, or `mer_…`). */
  merchantId: string | number;
  /** true (default): suspend (reads answer, money moves are refused); false: reinstate. */
  suspended?: boolean | null | undefined;
};

/** Narrows the transfer list. All conditions must hold. The gateway applies them (the service lists transfers unfiltered), with one call to the service per operation whatever the filter. */
export type TransferFilter = {
  /** Amount at most this, in XOF. */
  amountMax?: number | null | undefined;
  /** Amount at least this, in XOF. */
  amountMin?: number | null | undefined;
  /** Requested on or after this day (UTC). */
  dateFrom?: string | null | undefined;
  /** Requested on or before this day (UTC). */
  dateTo?: string | null | undefined;
  /** Exactly this external id of yours. */
  extId?: string | null | undefined;
  /** To this recipient phone only. */
  phone?: string | null | undefined;
  /** Exactly this transfer reference. */
  reference?: string | null | undefined;
  /** This status only. */
  status?: TransferStatus | null | undefined;
  /** Paid from this wallet only. */
  wallet?: Wallet | null | undefined;
};

/** Where a transfer stands. */
export type TransferStatus =
  /** Not delivered; the amount and fees went back to the wallet. */
  | 'FAILED'
  /** Queued or being processed. */
  | 'PENDING'
  /** Delivered to the recipient. */
  | 'SUCCESS';

/** What to change; absent fields stay as they are. */
export type UpdateWebhookEndpointInput = {
  /** A new note. */
  description?: string | null | undefined;
  /** false stops deliveries; true starts them again (and clears the failure streak). */
  enabled?: boolean | null | undefined;
  /** The endpoint’s id. */
  endpointId: string | number;
  /** New kinds; empty: every kind. */
  kinds?: Array<string> | null | undefined;
  /** A new URL. */
  url?: string | null | undefined;
};

/** Operator wallet holding a Transfer Balance, from which payouts are sent. */
export type Wallet =
  | 'OPA_BF'
  | 'OPB_BF'
  | 'OPD_BF'
  | 'OPE_BJ'
  | 'OPF_BJ';

/** Narrows the delivery log. All conditions must hold. */
export type WebhookDeliveryFilter = {
  /** Created at or after this time. */
  from?: string | null | undefined;
  /** This event kind only. */
  kind?: string | null | undefined;
  /** This status only. */
  status?: WebhookDeliveryStatus | null | undefined;
  /** Created at or before this time. */
  to?: string | null | undefined;
};

/** Where a delivery stands. */
export type WebhookDeliveryStatus =
  /** Every attempt of the retry schedule failed (redeliverWebhook sends it again). */
  | 'FAILED'
  /** Not delivered yet: in flight, or waiting for its next attempt. */
  | 'PENDING'
  /** The endpoint answered 2xx. */
  | 'SUCCEEDED';

export type BalanceQueryVariables = Exact<{ [key: string]: never; }>;


export type BalanceQuery = { __typename: 'Query', balance: { __typename: 'Balance', currency: string, collection: { __typename: 'MoneyBucket', available: number, pending: number }, transferTotal: { __typename: 'MoneyBucket', available: number, pending: number }, wallets: Array<{ __typename: 'WalletBalance', wallet: Wallet, available: number, pending: number }> } };

export type CreateBulkTransferMutationVariables = Exact<{
  input: CreateBulkTransferInput;
}>;


export type CreateBulkTransferMutation = { __typename: 'Mutation', createBulkTransfer:
    | { __typename: 'BatchSizeLimitExceededError', limit: number, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'CreateBulkTransferPayload', queuedCount: number, failures: Array<{ __typename: 'BulkTransferFailure', index: number | null, item: { __typename: 'TransferItem', recipientPhone: string, amount: number, recipientWallet: Wallet | null, extId: string | null }, error:
          | { __typename: 'BatchSizeLimitExceededError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'InsufficientFundsError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'InvalidAccountError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'InvalidWebhookUrlError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'MerchantNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'MerchantOffboardedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'NotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'OtpExpiredError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'OtpInvalidError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'OtpStillValidError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'PaymentAccountMissingError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'PayoutBatchFullError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'PayoutBatchShortfallError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'SelfApprovalError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'SettlementNotCancellableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'TransferFailedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'UnauthorizedChargeProviderError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'UnsupportedProviderError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'WebhookDeliveryNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'WebhookEndpointLimitError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
          | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
         }> }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', retryAfterMs: number | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UpstreamError', outcomeUnknown: boolean, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type CreateChargeMutationVariables = Exact<{
  input: CreateChargeInput;
}>;


export type CreateChargeMutation = { __typename: 'Mutation', createCharge:
    | { __typename: 'CreateChargePayload', reference: string, status: ChargeStatus, nextAction: ChargeNextAction, displayText: string, displayTextFr: string, clientToken: string }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'InvalidAccountError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'OtpStillValidError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', retryAfterMs: number | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UnauthorizedChargeProviderError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UnsupportedProviderError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UpstreamError', outcomeUnknown: boolean, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type SubmitChargeOtpMutationVariables = Exact<{
  reference: string;
  otp: string;
}>;


export type SubmitChargeOtpMutation = { __typename: 'Mutation', submitChargeOtp:
    | { __typename: 'InsufficientFundsError', wallet: Wallet | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'OtpExpiredError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'OtpInvalidError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', retryAfterMs: number | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'SubmitChargeOtpPayload', charge: { __typename: 'Charge', reference: string, status: ChargeStatus, amount: number, feePercent: number, transactionDate: string | null } }
    | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type ChargeQueryVariables = Exact<{
  reference: string;
}>;


export type ChargeQuery = { __typename: 'Query', charge: { __typename: 'Charge', id: string, reference: string, amount: number, feePercent: number, status: ChargeStatus, provider: Provider, phone: string | null, extId: string | null, createdAt: string | null, updatedAt: string | null, confirmationAttempts: Array<{ __typename: 'ConfirmationAttempt', attemptDate: string, status: string }> } | null };

export type InitializeCheckoutMutationVariables = Exact<{
  input: InitializeCheckoutInput;
}>;


export type InitializeCheckoutMutation = { __typename: 'Mutation', initializeCheckout:
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'InitializeCheckoutPayload', reference: string, authorizationUrl: string, clientToken: string, liveMode: boolean }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', retryAfterMs: number | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UpstreamError', outcomeUnknown: boolean, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type CheckoutQueryVariables = Exact<{
  reference: string;
}>;


export type CheckoutQuery = { __typename: 'Query', checkout: { __typename: 'Checkout', id: string, reference: string, amount: number, status: CheckoutStatus, phone: string | null, provider: Provider | null, createdAt: string, updatedAt: string, charge: { __typename: 'Charge', reference: string, status: ChargeStatus, amount: number, feePercent: number } | null } | null };

export type CheckoutUpdatedSubscriptionVariables = Exact<{
  reference: string;
}>;


export type CheckoutUpdatedSubscription = { checkoutUpdated: { __typename: 'Checkout', reference: string, status: CheckoutStatus, provider: Provider | null, updatedAt: string, chargeReference: string | null } };

export type ChargesQueryVariables = Exact<{
  filter?: ChargeFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ChargesQuery = { __typename: 'Query', charges: { __typename: 'ChargeConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'ChargeEdge', cursor: string, node: { __typename: 'Charge', reference: string, amount: number, status: ChargeStatus, provider: Provider, phone: string | null, createdAt: string | null } }> } };

export type TransfersQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type TransfersQuery = { __typename: 'Query', transfers: { __typename: 'TransferConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'TransferEdge', node: { __typename: 'Transfer', reference: string, amount: number, status: TransferStatus, recipientPhone: string, recipientWallet: Wallet | null, createdAt: string } }> } };

export type CheckoutsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type CheckoutsQuery = { __typename: 'Query', checkouts: { __typename: 'CheckoutConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'CheckoutEdge', node: { __typename: 'Checkout', reference: string, amount: number, status: CheckoutStatus, createdAt: string } }> } };

export type SettlementsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type SettlementsQuery = { __typename: 'Query', settlements: { __typename: 'SettlementConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'SettlementEdge', node: { __typename: 'Settlement', reference: string, amount: number, status: SettlementStatus, createdAt: string } }> } };

export type PaymentEventsSubscriptionVariables = Exact<{
  after?: string | number | null | undefined;
  kinds?: Array<string> | string | null | undefined;
}>;


export type PaymentEventsSubscription = { paymentEvents: { __typename: 'PaymentEvent', id: string, kind: string, reference: string | null, receivedAt: string, charge: { __typename: 'Charge', reference: string, status: ChargeStatus } | null, transfer: { __typename: 'Transfer', reference: string, status: TransferStatus } | null, checkout: { __typename: 'Checkout', reference: string, status: CheckoutStatus } | null, settlement: { __typename: 'Settlement', reference: string, status: SettlementStatus } | null } };

export type CreatePayoutBatchMutationVariables = Exact<{
  create: CreatePayoutBatchInput;
}>;


export type CreatePayoutBatchMutation = { __typename: 'Mutation', createPayoutBatch:
    | { __typename: 'CreatePayoutBatchPayload', batch: { __typename: 'PayoutBatch', id: string, batchId: string, status: PayoutBatchStatus, label: string } }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type AddPayoutBatchItemsMutationVariables = Exact<{
  add: AddPayoutBatchItemsInput;
}>;


export type AddPayoutBatchItemsMutation = { __typename: 'Mutation', addPayoutBatchItems:
    | { __typename: 'AddPayoutBatchItemsPayload', page: number, firstIndex: number, added: number, batch: { __typename: 'PayoutBatch', added: { __typename: 'PayoutBatchTally', items: number, amount: number } } }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchFullError', limit: number, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type PayoutBatchQueryVariables = Exact<{
  id: string | number;
  itemFilter?: PayoutBatchItemFilter | null | undefined;
}>;


export type PayoutBatchQuery = { __typename: 'Query', payoutBatch: { __typename: 'PayoutBatch', id: string, batchId: string, label: string, status: PayoutBatchStatus, awaitingApproval: boolean, settled: boolean, added: { __typename: 'PayoutBatchTally', items: number, amount: number }, sent: { __typename: 'PayoutBatchTally', items: number, amount: number }, succeeded: { __typename: 'PayoutBatchTally', items: number, amount: number }, failed: { __typename: 'PayoutBatchTally', items: number, amount: number }, notSent: { __typename: 'PayoutBatchTally', items: number, amount: number }, wallets: Array<{ __typename: 'PayoutBatchWalletTotal', wallet: Wallet, items: number, amount: number, fees: number, total: number, available: number | null, shortfall: number | null }>, items: { __typename: 'PayoutBatchItemConnection', totalCount: number, edges: Array<{ __typename: 'PayoutBatchItemEdge', node: { __typename: 'PayoutBatchItem', index: number, amount: number, recipientPhone: string, recipientWallet: Wallet, reference: string | null, status: PayoutBatchItemStatus, transferReference: string | null, failure:
            | { __typename: 'BatchSizeLimitExceededError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'InsufficientFundsError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'InvalidAccountError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'InvalidWebhookUrlError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'MerchantNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'MerchantOffboardedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'NotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'OtpExpiredError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'OtpInvalidError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'OtpStillValidError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PaymentAccountMissingError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchFullError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchShortfallError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'SelfApprovalError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'SettlementNotCancellableError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'TransferFailedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'UnauthorizedChargeProviderError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'UnsupportedProviderError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhookDeliveryNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhookEndpointLimitError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string }
           | null } }>, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null } } } | null };

export type StartPayoutBatchMutationVariables = Exact<{
  start: StartPayoutBatchInput;
}>;


export type StartPayoutBatchMutation = { __typename: 'Mutation', startPayoutBatch:
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchShortfallError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, shortfalls: Array<{ __typename: 'PayoutBatchShortfall', wallet: Wallet, required: number, available: number, shortfall: number }> }
    | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'StartPayoutBatchPayload', batch: { __typename: 'PayoutBatch', status: PayoutBatchStatus, awaitingApproval: boolean } }
    | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type ApprovePayoutBatchMutationVariables = Exact<{
  approve: ApprovePayoutBatchInput;
}>;


export type ApprovePayoutBatchMutation = { __typename: 'Mutation', approvePayoutBatch:
    | { __typename: 'ApprovePayoutBatchPayload', batch: { __typename: 'PayoutBatch', status: PayoutBatchStatus, approvedBy: string | null } }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchShortfallError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, shortfalls: Array<{ __typename: 'PayoutBatchShortfall', wallet: Wallet, required: number, available: number, shortfall: number }> }
    | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'SelfApprovalError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type CancelPayoutBatchMutationVariables = Exact<{
  cancel: CancelPayoutBatchInput;
}>;


export type CancelPayoutBatchMutation = { __typename: 'Mutation', cancelPayoutBatch:
    | { __typename: 'CancelPayoutBatchPayload', batch: { __typename: 'PayoutBatch', status: PayoutBatchStatus, sent: { __typename: 'PayoutBatchTally', items: number }, notSent: { __typename: 'PayoutBatchTally', items: number } } }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type PayoutBatchUpdatedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type PayoutBatchUpdatedSubscription = { payoutBatchUpdated: { __typename: 'PayoutBatch', status: PayoutBatchStatus, settled: boolean, sent: { __typename: 'PayoutBatchTally', items: number, amount: number }, succeeded: { __typename: 'PayoutBatchTally', items: number, amount: number }, failed: { __typename: 'PayoutBatchTally', items: number, amount: number }, notSent: { __typename: 'PayoutBatchTally', items: number, amount: number } } };

export type CreateTransferMutationVariables = Exact<{
  input: CreateTransferInput;
}>;


export type CreateTransferMutation = { __typename: 'Mutation', createTransfer:
    | { __typename: 'CreateTransferPayload', transfer: { __typename: 'Transfer', reference: string, status: TransferStatus, amount: number, feePercent: number, recipientPhone: string, recipientWallet: Wallet | null } }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'InsufficientFundsError', wallet: Wallet | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'InvalidAccountError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', retryAfterMs: number | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UpstreamError', outcomeUnknown: boolean, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type TransferQueryVariables = Exact<{
  reference: string;
}>;


export type TransferQuery = { __typename: 'Query', transfer: { __typename: 'Transfer', id: string, reference: string, amount: number, feePercent: number, status: TransferStatus, recipientPhone: string, recipientWallet: Wallet | null, extId: string | null, createdAt: string } | null };

export type TransferUpdatedSubscriptionVariables = Exact<{
  reference: string;
}>;


export type TransferUpdatedSubscription = { transferUpdated: { __typename: 'Transfer', reference: string, status: TransferStatus, amount: number, recipientPhone: string } };

export type MerchantsQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type MerchantsQuery = { __typename: 'Query', merchants: { __typename: 'MerchantConnection', totalCount: number, edges: Array<{ __typename: 'MerchantEdge', node: { __typename: 'Merchant', merchantId: string, name: string, status: MerchantStatus, liveMode: boolean, apiKeyLast4: string, inboundWebhookUrl: string } }> } };

export type MerchantEventsQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type MerchantEventsQuery = { __typename: 'Query', merchantEvents: { __typename: 'MerchantEventConnection', totalCount: number, edges: Array<{ __typename: 'MerchantEventEdge', node: { __typename: 'PaymentEvent', kind: string, receivedAt: string, payload: unknown } }> } };

export type CreateMerchantMutationVariables = Exact<{
  create: CreateMerchantInput;
}>;


export type CreateMerchantMutation = { __typename: 'Mutation', createMerchant:
    | { __typename: 'CreateMerchantPayload', merchant: { __typename: 'Merchant', merchantId: string, name: string, inboundWebhookUrl: string } }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type SuspendMerchantMutationVariables = Exact<{
  suspend: SuspendMerchantInput;
}>;


export type SuspendMerchantMutation = { __typename: 'Mutation', suspendMerchant:
    | { __typename: 'MerchantNotFoundError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'MerchantOffboardedError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'SuspendMerchantPayload', merchant: { __typename: 'Merchant', merchantId: string, status: MerchantStatus } }
   };

export type RotateMerchantApiKeyMutationVariables = Exact<{
  rotate: RotateMerchantApiKeyInput;
}>;


export type RotateMerchantApiKeyMutation = { __typename: 'Mutation', rotateMerchantApiKey:
    | { __typename: 'MerchantNotFoundError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'MerchantOffboardedError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'RotateMerchantApiKeyPayload', merchant: { __typename: 'Merchant', merchantId: string, apiKeyLast4: string } }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type OffboardMerchantMutationVariables = Exact<{
  offboard: OffboardMerchantInput;
}>;


export type OffboardMerchantMutation = { __typename: 'Mutation', offboardMerchant:
    | { __typename: 'MerchantNotFoundError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'OffboardMerchantPayload', merchant: { __typename: 'Merchant', merchantId: string, status: MerchantStatus, purgeAfter: string | null } }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string }
   };

export type CreateSettlementMutationVariables = Exact<{
  input: CreateSettlementInput;
}>;


export type CreateSettlementMutation = { __typename: 'Mutation', createSettlement:
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'InsufficientFundsError', wallet: Wallet | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'PaymentAccountMissingError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', retryAfterMs: number | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'SettlementPayload', settlement: { __typename: 'Settlement', reference: string, status: SettlementStatus, amount: number, settlementFees: number, accountType: PayoutAccountType } }
    | { __typename: 'UpstreamError', outcomeUnknown: boolean, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
   };

export type CancelSettlementMutationVariables = Exact<{
  reference: string;
}>;


export type CancelSettlementMutation = { __typename: 'Mutation', cancelSettlement:
    | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'NotFoundError', reference: string, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'SettlementNotCancellableError', settlementStatus: SettlementStatus | null, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'SettlementPayload', settlement: { __typename: 'Settlement', reference: string, status: SettlementStatus } }
    | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type SettlementQueryVariables = Exact<{
  reference: string;
}>;


export type SettlementQuery = { __typename: 'Query', settlement: { __typename: 'Settlement', id: string, reference: string, amount: number, settlementFees: number, status: SettlementStatus, accountType: PayoutAccountType, createdAt: string, updatedAt: string, account: { __typename: 'PayoutAccount', bankName: string | null, iban: string | null, accountHolderName: string | null, phone: string | null, provider: string | null } } | null };

export type SettlementUpdatedSubscriptionVariables = Exact<{
  reference: string;
}>;


export type SettlementUpdatedSubscription = { settlementUpdated: { __typename: 'Settlement', reference: string, status: SettlementStatus, amount: number, updatedAt: string } };

export type ChargeUpdatedSubscriptionVariables = Exact<{
  reference: string;
}>;


export type ChargeUpdatedSubscription = { chargeUpdated: { __typename: 'Charge', reference: string, status: ChargeStatus, amount: number, provider: Provider, updatedAt: string | null } };

export type CreateWebhookEndpointMutationVariables = Exact<{
  create: CreateWebhookEndpointInput;
}>;


export type CreateWebhookEndpointMutation = { __typename: 'Mutation', createWebhookEndpoint:
    | { __typename: 'CreateWebhookEndpointPayload', secret: string, endpoint: { __typename: 'WebhookEndpoint', id: string, url: string, kinds: Array<string>, enabled: boolean, createdAt: string } }
    | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'InvalidWebhookUrlError', urlProblem: string, urlProblemFr: string, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
    | { __typename: 'WebhookEndpointLimitError', max: number, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type SendTestWebhookMutationVariables = Exact<{
  endpointId: string | number;
}>;


export type SendTestWebhookMutation = { __typename: 'Mutation', sendTestWebhook:
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'SendTestWebhookPayload', delivery: { __typename: 'WebhookDelivery', id: string, eventId: string, kind: string, status: WebhookDeliveryStatus } }
    | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type WebhookDeliveriesQueryVariables = Exact<{
  endpointId: string | number;
  deliveryFilter?: WebhookDeliveryFilter | null | undefined;
}>;


export type WebhookDeliveriesQuery = { __typename: 'Query', webhookDeliveries: { __typename: 'WebhookDeliveryConnection', pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'WebhookDeliveryEdge', node: { __typename: 'WebhookDelivery', id: string, eventId: string, kind: string, status: WebhookDeliveryStatus, createdAt: string, nextAttemptAt: string | null, attempts: Array<{ __typename: 'WebhookDeliveryAttempt', at: string, httpStatus: number | null, durationMs: number, error: string | null, responseBodyExcerpt: string | null }> } }> } };

export type WebhookEndpointsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEndpointsQuery = { __typename: 'Query', webhookEndpoints: { __typename: 'WebhookEndpointConnection', edges: Array<{ __typename: 'WebhookEndpointEdge', node: { __typename: 'WebhookEndpoint', id: string, url: string, description: string | null, kinds: Array<string>, enabled: boolean, disabledReason: string | null, createdAt: string, health: { __typename: 'WebhookEndpointHealth', lastSuccessAt: string | null, failingSince: string | null, consecutiveFailures: number, deliveriesWaiting: number } } }> } };

export type WebhookEventKindsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEventKindsQuery = { __typename: 'Query', webhookEventKinds: Array<string> };

export type UpdateWebhookEndpointMutationVariables = Exact<{
  update: UpdateWebhookEndpointInput;
}>;


export type UpdateWebhookEndpointMutation = { __typename: 'Mutation', updateWebhookEndpoint:
    | { __typename: 'InvalidWebhookUrlError', urlProblem: string, urlProblemFr: string, code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'UpdateWebhookEndpointPayload', endpoint: { __typename: 'WebhookEndpoint', id: string, url: string, kinds: Array<string>, enabled: boolean } }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string, retryable: boolean, fieldErrors: Array<{ __typename: 'FieldError', path: Array<string>, message: string, messageFr: string }> }
    | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type RotateWebhookEndpointSecretMutationVariables = Exact<{
  endpointId: string | number;
}>;


export type RotateWebhookEndpointSecretMutation = { __typename: 'Mutation', rotateWebhookEndpointSecret:
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RotateWebhookEndpointSecretPayload', secret: string, previousSecretExpiresAt: string, endpoint: { __typename: 'WebhookEndpoint', id: string } }
    | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type RedeliverWebhookMutationVariables = Exact<{
  deliveryId: string | number;
}>;


export type RedeliverWebhookMutation = { __typename: 'Mutation', redeliverWebhook:
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'RedeliverWebhookPayload', delivery: { __typename: 'WebhookDelivery', id: string, status: WebhookDeliveryStatus, nextAttemptAt: string | null } }
    | { __typename: 'WebhookDeliveryNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type ReplayWebhookEventsMutationVariables = Exact<{
  endpointId: string | number;
  since: string;
}>;


export type ReplayWebhookEventsMutation = { __typename: 'Mutation', replayWebhookEvents:
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'ReplayWebhookEventsPayload', eventsQueued: number, endpoint: { __typename: 'WebhookEndpoint', id: string } }
    | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type DeleteWebhookEndpointMutationVariables = Exact<{
  endpointId: string | number;
}>;


export type DeleteWebhookEndpointMutation = { __typename: 'Mutation', deleteWebhookEndpoint:
    | { __typename: 'DeleteWebhookEndpointPayload', deletedEndpointId: string }
    | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
    | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string, retryable: boolean }
   };

export type ConsoleWebhookDeliveriesQueryVariables = Exact<{
  endpointId: string | number;
  filter?: WebhookDeliveryFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleWebhookDeliveriesQuery = { __typename: 'Query', webhookDeliveries: { __typename: 'WebhookDeliveryConnection', pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'WebhookDeliveryEdge', node: { __typename: 'WebhookDelivery', id: string, eventId: string, kind: string, status: WebhookDeliveryStatus, createdAt: string, nextAttemptAt: string | null, attempts: Array<{ __typename: 'WebhookDeliveryAttempt', at: string, httpStatus: number | null, durationMs: number, error: string | null, responseBodyExcerpt: string | null }> } }> } };

export type ConsolePageInfoFragment = { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null };

export type ConsoleTallyFragment = { __typename: 'PayoutBatchTally', items: number, amount: number };

export type ConsoleBatchProgressFragment = { __typename: 'PayoutBatch', id: string, status: PayoutBatchStatus, awaitingApproval: boolean, settled: boolean, approvedBy: string | null, added: { __typename: 'PayoutBatchTally', items: number, amount: number }, sent: { __typename: 'PayoutBatchTally', items: number, amount: number }, succeeded: { __typename: 'PayoutBatchTally', items: number, amount: number }, failed: { __typename: 'PayoutBatchTally', items: number, amount: number }, notSent: { __typename: 'PayoutBatchTally', items: number, amount: number } };

export type ConsoleMerchantsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleMerchantsQuery = { __typename: 'Query', merchants: { __typename: 'MerchantConnection', edges: Array<{ __typename: 'MerchantEdge', node: { __typename: 'Merchant', id: string, merchantId: string, name: string, status: MerchantStatus } }> } };

export type ConsoleChargesForChartQueryVariables = Exact<{
  filter?: ChargeFilter | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleChargesForChartQuery = { __typename: 'Query', charges: { __typename: 'ChargeConnection', pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'ChargeEdge', node: { __typename: 'Charge', amount: number, status: ChargeStatus, createdAt: string | null } }> } };

export type ConsoleSettlementsQueryVariables = Exact<{
  filter?: SettlementFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleSettlementsQuery = { __typename: 'Query', settlements: { __typename: 'SettlementConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'SettlementEdge', node: { __typename: 'Settlement', id: string, reference: string, amount: number, settlementFees: number, status: SettlementStatus, accountType: PayoutAccountType, createdAt: string } }> } };

export type ConsoleChargesQueryVariables = Exact<{
  filter?: ChargeFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleChargesQuery = { __typename: 'Query', charges: { __typename: 'ChargeConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'ChargeEdge', node: { __typename: 'Charge', id: string, reference: string, amount: number, status: ChargeStatus, provider: Provider, phone: string | null, createdAt: string | null } }> } };

export type ConsoleCheckoutsQueryVariables = Exact<{
  filter?: CheckoutFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleCheckoutsQuery = { __typename: 'Query', checkouts: { __typename: 'CheckoutConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'CheckoutEdge', node: { __typename: 'Checkout', id: string, reference: string, amount: number, status: CheckoutStatus, provider: Provider | null, phone: string | null, chargeReference: string | null, createdAt: string } }> } };

export type ConsoleChargeQueryVariables = Exact<{
  reference: string;
}>;


export type ConsoleChargeQuery = { __typename: 'Query', charge: { __typename: 'Charge', id: string, reference: string, amount: number, currency: string, feePercent: number, status: ChargeStatus, provider: Provider, phone: string | null, paymentMethod: string, extId: string | null, operatorId: string | null, transactionDate: string | null, cancellationReason: string | null, createdAt: string | null, updatedAt: string | null, confirmationAttempts: Array<{ __typename: 'ConfirmationAttempt', attemptDate: string, status: string, ipAddress: string | null }> } | null };

export type ConsoleCheckoutQueryVariables = Exact<{
  reference: string;
}>;


export type ConsoleCheckoutQuery = { __typename: 'Query', checkout: { __typename: 'Checkout', id: string, reference: string, amount: number, status: CheckoutStatus, provider: Provider | null, phone: string | null, email: string | null, chargeReference: string | null, successUrl: string, cancelUrl: string, createdAt: string, updatedAt: string } | null };

export type ConsoleTimelineQueryVariables = Exact<{
  reference: string;
}>;


export type ConsoleTimelineQuery = { __typename: 'Query', events: { __typename: 'PaymentEventConnection', edges: Array<{ __typename: 'PaymentEventEdge', node: { __typename: 'PaymentEvent', id: string, kind: string, source: EventSource, receivedAt: string } }> } };

export type ConsoleEventsSubscriptionVariables = Exact<{
  kinds?: Array<string> | string | null | undefined;
}>;


export type ConsoleEventsSubscription = { paymentEvents: { __typename: 'PaymentEvent', id: string, kind: string, reference: string | null, source: EventSource, receivedAt: string } };

export type ConsoleTransfersQueryVariables = Exact<{
  filter?: TransferFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleTransfersQuery = { __typename: 'Query', transfers: { __typename: 'TransferConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'TransferEdge', node: { __typename: 'Transfer', id: string, reference: string, amount: number, status: TransferStatus, recipientPhone: string, recipientWallet: Wallet | null, extId: string | null, createdAt: string } }> } };

export type ConsolePayoutBatchesQueryVariables = Exact<{
  filter?: PayoutBatchFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsolePayoutBatchesQuery = { __typename: 'Query', payoutBatches: { __typename: 'PayoutBatchConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'PayoutBatchEdge', node: { __typename: 'PayoutBatch', id: string, batchId: string, label: string, status: PayoutBatchStatus, awaitingApproval: boolean, createdBy: string, startedBy: string | null, createdAt: string, added: { __typename: 'PayoutBatchTally', items: number, amount: number } } }> } };

export type ConsolePayoutBatchQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsolePayoutBatchQuery = { __typename: 'Query', payoutBatch: { __typename: 'PayoutBatch', batchId: string, label: string, createdBy: string, startedBy: string | null, cancelledBy: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, id: string, status: PayoutBatchStatus, awaitingApproval: boolean, settled: boolean, approvedBy: string | null, wallets: Array<{ __typename: 'PayoutBatchWalletTotal', wallet: Wallet, items: number, amount: number, fees: number, total: number, available: number | null, shortfall: number | null }>, added: { __typename: 'PayoutBatchTally', items: number, amount: number }, sent: { __typename: 'PayoutBatchTally', items: number, amount: number }, succeeded: { __typename: 'PayoutBatchTally', items: number, amount: number }, failed: { __typename: 'PayoutBatchTally', items: number, amount: number }, notSent: { __typename: 'PayoutBatchTally', items: number, amount: number } } | null };

export type ConsolePayoutBatchItemsQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: PayoutBatchItemFilter | null | undefined;
}>;


export type ConsolePayoutBatchItemsQuery = { __typename: 'Query', payoutBatch: { __typename: 'PayoutBatch', id: string, items: { __typename: 'PayoutBatchItemConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor: string | null }, edges: Array<{ __typename: 'PayoutBatchItemEdge', node: { __typename: 'PayoutBatchItem', index: number, amount: number, recipientPhone: string, recipientWallet: Wallet, reference: string | null, status: PayoutBatchItemStatus, transferReference: string | null, failure:
            | { __typename: 'BatchSizeLimitExceededError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'IdempotencyConflictError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'InsufficientFundsError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'InvalidAccountError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'InvalidWebhookUrlError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'MerchantNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'MerchantOffboardedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'MerchantSuspendedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'NotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'OtpExpiredError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'OtpInvalidError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'OtpStillValidError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PaymentAccountMissingError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchFullError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchShortfallError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'PayoutBatchStateError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'RateLimitedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'SelfApprovalError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'ServiceUnavailableError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'SettlementNotCancellableError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'TransferFailedError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'UnauthorizedChargeProviderError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'UnsupportedProviderError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'UpstreamError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'ValidationError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhookDeliveryNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhookEndpointLimitError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhookEndpointNotFoundError', code: ErrorCode, message: string, messageFr: string }
            | { __typename: 'WebhooksUnavailableError', code: ErrorCode, message: string, messageFr: string }
           | null } }> } } | null };

export type ConsolePayoutBatchUpdatedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type ConsolePayoutBatchUpdatedSubscription = { payoutBatchUpdated: { __typename: 'PayoutBatch', id: string, status: PayoutBatchStatus, awaitingApproval: boolean, settled: boolean, approvedBy: string | null, added: { __typename: 'PayoutBatchTally', items: number, amount: number }, sent: { __typename: 'PayoutBatchTally', items: number, amount: number }, succeeded: { __typename: 'PayoutBatchTally', items: number, amount: number }, failed: { __typename: 'PayoutBatchTally', items: number, amount: number }, notSent: { __typename: 'PayoutBatchTally', items: number, amount: number } } };

export const ConsolePageInfoFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsolePageInfoFragment, unknown>;
export const ConsoleTallyFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleTally"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchTally"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]} as unknown as DocumentNode<ConsoleTallyFragment, unknown>;
export const ConsoleBatchProgressFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleBatchProgress"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatch"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"awaitingApproval"}},{"kind":"Field","name":{"kind":"Name","value":"settled"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notSent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleTally"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchTally"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]} as unknown as DocumentNode<ConsoleBatchProgressFragment, unknown>;
export const BalanceDocument = {"__meta__":{"hash":"6b023cee29921bbc06a97a6702cd42638b4ee906b6362186cf51597528d0381c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"collection"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}}]}},{"kind":"Field","name":{"kind":"Name","value":"transferTotal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}}]}},{"kind":"Field","name":{"kind":"Name","value":"wallets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}}]}}]}}]}}]} as unknown as DocumentNode<BalanceQuery, BalanceQueryVariables>;
export const CreateBulkTransferDocument = {"__meta__":{"hash":"a5adce7a7c3d4b4a4764a6f416e2aab1883f8c0e4cdc4e8ca837be68725ae2d6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateBulkTransfer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateBulkTransferInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createBulkTransfer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateBulkTransferPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"queuedCount"}},{"kind":"Field","name":{"kind":"Name","value":"failures"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"item"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}},{"kind":"Field","name":{"kind":"Name","value":"extId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"error"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BatchSizeLimitExceededError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpstreamError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeUnknown"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CreateBulkTransferMutation, CreateBulkTransferMutationVariables>;
export const CreateChargeDocument = {"__meta__":{"hash":"e2400fb764c641dc4471fc37c914c85eadec410762c626e0a34c2cdac36569c3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateCharge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateChargeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createCharge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateChargePayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"nextAction"}},{"kind":"Field","name":{"kind":"Name","value":"displayText"}},{"kind":"Field","name":{"kind":"Name","value":"displayTextFr"}},{"kind":"Field","name":{"kind":"Name","value":"clientToken"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpstreamError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeUnknown"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CreateChargeMutation, CreateChargeMutationVariables>;
export const SubmitChargeOtpDocument = {"__meta__":{"hash":"34759ccabd74c5ec916745115a27bf681fc224f155b1ee95725ab9a1143f6d0c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SubmitChargeOtp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"otp"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"submitChargeOtp"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"chargeReference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"otp"},"value":{"kind":"Variable","name":{"kind":"Name","value":"otp"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SubmitChargeOtpPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"feePercent"}},{"kind":"Field","name":{"kind":"Name","value":"transactionDate"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsufficientFundsError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<SubmitChargeOtpMutation, SubmitChargeOtpMutationVariables>;
export const ChargeDocument = {"__meta__":{"hash":"27f3d688fdbb7a6e26aa0acafba2098ade99217672145ad556d4250f8046f85f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Charge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"feePercent"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"extId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"confirmationAttempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"attemptDate"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<ChargeQuery, ChargeQueryVariables>;
export const InitializeCheckoutDocument = {"__meta__":{"hash":"383711c064fc2355ef4e1a346da95b0fc432261f0ecf86b2b81cb5bc347a050c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"InitializeCheckout"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InitializeCheckoutInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"initializeCheckout"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InitializeCheckoutPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"authorizationUrl"}},{"kind":"Field","name":{"kind":"Name","value":"clientToken"}},{"kind":"Field","name":{"kind":"Name","value":"liveMode"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpstreamError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeUnknown"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<InitializeCheckoutMutation, InitializeCheckoutMutationVariables>;
export const CheckoutDocument = {"__meta__":{"hash":"9373f7f17d32bbf5d46ed4608044031fed3eabb59dbee3e474306098bdeac637"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Checkout"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"checkout"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"feePercent"}}]}}]}}]}}]} as unknown as DocumentNode<CheckoutQuery, CheckoutQueryVariables>;
export const CheckoutUpdatedDocument = {"__meta__":{"hash":"fc91cc7a4774364536756f11444c621f9621ab8d6c0818a516a9c8e47b9c4169"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CheckoutUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"checkoutUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"chargeReference"}}]}}]}}]} as unknown as DocumentNode<CheckoutUpdatedSubscription, CheckoutUpdatedSubscriptionVariables>;
export const ChargesDocument = {"__meta__":{"hash":"b20e30490ff93742699ba645d5ad549c443407fdc8df8debdebf70ba16f51c7c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Charges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ChargeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ChargesQuery, ChargesQueryVariables>;
export const TransfersDocument = {"__meta__":{"hash":"615f1a698ee02ddb8edb8232558625f9ae849140388d773289155cf9cd3875d5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Transfers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"transfers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TransfersQuery, TransfersQueryVariables>;
export const CheckoutsDocument = {"__meta__":{"hash":"f7292f53956d64ceb2769fcca1bfabf3aa485f72130d275a4d050811d64cac73"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Checkouts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"checkouts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CheckoutsQuery, CheckoutsQueryVariables>;
export const SettlementsDocument = {"__meta__":{"hash":"2b803b9f8eba7b65e4f32e5c2df74b02068bac86ebf759dffe41b91d851fc2e4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Settlements"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"settlements"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SettlementsQuery, SettlementsQueryVariables>;
export const PaymentEventsDocument = {"__meta__":{"hash":"ca1996fcff64b429bc7b961f6d328a6cc2617b131007a2c72a44d6ccfd494334"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PaymentEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"kinds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"transfer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"checkout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"settlement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<PaymentEventsSubscription, PaymentEventsSubscriptionVariables>;
export const CreatePayoutBatchDocument = {"__meta__":{"hash":"1f4071f49d0ba692b8c6f406ea325d07602341db671c66e6c21878d22040fd77"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreatePayoutBatch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"create"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreatePayoutBatchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createPayoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"create"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreatePayoutBatchPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"batch"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"batchId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CreatePayoutBatchMutation, CreatePayoutBatchMutationVariables>;
export const AddPayoutBatchItemsDocument = {"__meta__":{"hash":"8e923a1cb9c195d1e0ac9dbbbde01b08c41eaabaad3d0bbfb9f14cc9a133af5c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddPayoutBatchItems"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"add"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddPayoutBatchItemsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"addPayoutBatchItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"add"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AddPayoutBatchItemsPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"firstIndex"}},{"kind":"Field","name":{"kind":"Name","value":"added"}},{"kind":"Field","name":{"kind":"Name","value":"batch"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchFullError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<AddPayoutBatchItemsMutation, AddPayoutBatchItemsMutationVariables>;
export const PayoutBatchDocument = {"__meta__":{"hash":"46e6518620f8e24a1a47f7ed60c4449e299df70379e90bdc711a833808cc1043"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PayoutBatch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"itemFilter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchItemFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"payoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"batchId"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"awaitingApproval"}},{"kind":"Field","name":{"kind":"Name","value":"settled"}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notSent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"wallets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"fees"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"shortfall"}}]}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"itemFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"transferReference"}},{"kind":"Field","name":{"kind":"Name","value":"failure"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<PayoutBatchQuery, PayoutBatchQueryVariables>;
export const StartPayoutBatchDocument = {"__meta__":{"hash":"4d53dc3131dc49e6f1730e43240a0b375794f9d04140f4f1b9fd8a9dea63255a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartPayoutBatch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"start"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StartPayoutBatchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"startPayoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"start"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StartPayoutBatchPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"batch"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"awaitingApproval"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchShortfallError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"shortfalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"shortfall"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<StartPayoutBatchMutation, StartPayoutBatchMutationVariables>;
export const ApprovePayoutBatchDocument = {"__meta__":{"hash":"8f2493ade4099e88a07a62b10399b219211466e1e442f79bd32041da85580f2e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ApprovePayoutBatch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"approve"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ApprovePayoutBatchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"approvePayoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"approve"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApprovePayoutBatchPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"batch"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchShortfallError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"shortfalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}},{"kind":"Field","name":{"kind":"Name","value":"required"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"shortfall"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<ApprovePayoutBatchMutation, ApprovePayoutBatchMutationVariables>;
export const CancelPayoutBatchDocument = {"__meta__":{"hash":"242cc9a549a73a46d9cb8d3532431e5452e97f49ef05bf225e7230e0e0e162f4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelPayoutBatch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cancel"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CancelPayoutBatchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cancelPayoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cancel"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CancelPayoutBatchPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"batch"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notSent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CancelPayoutBatchMutation, CancelPayoutBatchMutationVariables>;
export const PayoutBatchUpdatedDocument = {"__meta__":{"hash":"21916882fa7d6bded07161da4170fba0537e0e5f76b1b7d4890a1a10150675b9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PayoutBatchUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payoutBatchUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"settled"}},{"kind":"Field","name":{"kind":"Name","value":"sent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notSent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]}}]}}]} as unknown as DocumentNode<PayoutBatchUpdatedSubscription, PayoutBatchUpdatedSubscriptionVariables>;
export const CreateTransferDocument = {"__meta__":{"hash":"25d60ea1e23f7bdb05975d253623bc89c24ec2888ccf63e1193a83ced975c19f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateTransfer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateTransferInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createTransfer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateTransferPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"transfer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"feePercent"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsufficientFundsError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpstreamError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeUnknown"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CreateTransferMutation, CreateTransferMutationVariables>;
export const TransferDocument = {"__meta__":{"hash":"25a048e43516bd4706e4a98154533b8a7d98c365157859a78651b5759f2c8ffd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Transfer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"transfer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"feePercent"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}},{"kind":"Field","name":{"kind":"Name","value":"extId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<TransferQuery, TransferQueryVariables>;
export const TransferUpdatedDocument = {"__meta__":{"hash":"9e17f00dcb0d910b270bf998d21e39f8efe61e3b2f7e49c6be1dff8f0491679c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TransferUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transferUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}}]}}]}}]} as unknown as DocumentNode<TransferUpdatedSubscription, TransferUpdatedSubscriptionVariables>;
export const MerchantsDocument = {"__meta__":{"hash":"069a924c87de3f63e7399726f7a7e112da22da08e90141518938c52454d66fe4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Merchants"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchants"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"liveMode"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyLast4"}},{"kind":"Field","name":{"kind":"Name","value":"inboundWebhookUrl"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MerchantsQuery, MerchantsQueryVariables>;
export const MerchantEventsDocument = {"__meta__":{"hash":"e5e023a994eb77066387303db1a8227bec1cd06358f7219b24656cfa5353751c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MerchantEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchantEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MerchantEventsQuery, MerchantEventsQueryVariables>;
export const CreateMerchantDocument = {"__meta__":{"hash":"7bccb895eae20cc0f54d37efa42f6f1a73d5510f5d2839df3138f50dc396d8e8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateMerchant"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"create"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateMerchantInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createMerchant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"create"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateMerchantPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"inboundWebhookUrl"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}}]}}]} as unknown as DocumentNode<CreateMerchantMutation, CreateMerchantMutationVariables>;
export const SuspendMerchantDocument = {"__meta__":{"hash":"e386a92ea4bb8b5d151d624d2444b83b89944c8a5519cd9b913fe81d92e4ddd1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SuspendMerchant"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"suspend"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SuspendMerchantInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"suspendMerchant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"suspend"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SuspendMerchantPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}}]}}]} as unknown as DocumentNode<SuspendMerchantMutation, SuspendMerchantMutationVariables>;
export const RotateMerchantApiKeyDocument = {"__meta__":{"hash":"7a912d78380624960a318e396dbb5016d076812e11e340615c9a5a77bf58d272"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateMerchantApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rotate"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RotateMerchantApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"rotateMerchantApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rotate"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RotateMerchantApiKeyPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeyLast4"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}}]}}]} as unknown as DocumentNode<RotateMerchantApiKeyMutation, RotateMerchantApiKeyMutationVariables>;
export const OffboardMerchantDocument = {"__meta__":{"hash":"4d8773886c98a560f404d216429fb604f1faaf356a66bac0ee9a3a0dcb7e89d8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OffboardMerchant"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offboard"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OffboardMerchantInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offboardMerchant"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offboard"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OffboardMerchantPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchant"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"purgeAfter"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}}]}}]} as unknown as DocumentNode<OffboardMerchantMutation, OffboardMerchantMutationVariables>;
export const CreateSettlementDocument = {"__meta__":{"hash":"8bf1f1bed6261e43e4cc7d9b7e312e36a768d7883cbb015719755157e6dc063d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateSettlement"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateSettlementInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createSettlement"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SettlementPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"settlement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"settlementFees"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsufficientFundsError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RateLimitedError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfterMs"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpstreamError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"outcomeUnknown"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CreateSettlementMutation, CreateSettlementMutationVariables>;
export const CancelSettlementDocument = {"__meta__":{"hash":"35c9a4f846f4e960ef0101882fede44046ee358bea6765ec3e01b8fc508e996b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelSettlement"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cancelSettlement"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SettlementPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"settlement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SettlementNotCancellableError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"settlementStatus"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFoundError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CancelSettlementMutation, CancelSettlementMutationVariables>;
export const SettlementDocument = {"__meta__":{"hash":"0aa0a1d0c800e322a26609dc6b24c71866040e513e8d2caa1778bbe6211618e1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Settlement"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"settlement"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"settlementFees"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"account"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"bankName"}},{"kind":"Field","name":{"kind":"Name","value":"iban"}},{"kind":"Field","name":{"kind":"Name","value":"accountHolderName"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<SettlementQuery, SettlementQueryVariables>;
export const SettlementUpdatedDocument = {"__meta__":{"hash":"ac9d8595fff461ecacbe4582ead87dfac48a47df57f053f3952501da48b93f93"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SettlementUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"settlementUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<SettlementUpdatedSubscription, SettlementUpdatedSubscriptionVariables>;
export const ChargeUpdatedDocument = {"__meta__":{"hash":"47e836c936e80e4443d1a7981eb51f9e1f63dba2cc4d81110c686c580fddac74"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ChargeUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<ChargeUpdatedSubscription, ChargeUpdatedSubscriptionVariables>;
export const CreateWebhookEndpointDocument = {"__meta__":{"hash":"1470853d5ad6daaddaa00abc4d473475596a2b17592aeaba3c06ba4248b003dd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"create"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateWebhookEndpointInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"createWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"create"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateWebhookEndpointPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"kinds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidWebhookUrlError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"urlProblem"}},{"kind":"Field","name":{"kind":"Name","value":"urlProblemFr"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpointLimitError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"max"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<CreateWebhookEndpointMutation, CreateWebhookEndpointMutationVariables>;
export const SendTestWebhookDocument = {"__meta__":{"hash":"1f55dd8b097c727a802ea82909bd8cfebd418fed970723a14421b95cf15f0e42"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendTestWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sendTestWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SendTestWebhookPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"delivery"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<SendTestWebhookMutation, SendTestWebhookMutationVariables>;
export const WebhookDeliveriesDocument = {"__meta__":{"hash":"8a44db12a3909ee8bf0e60b0d037a3ea61ff2ffd5f3a0bc9ddd290960a5d6b9c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookDeliveries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliveryFilter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDeliveryFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"webhookDeliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliveryFilter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"responseBodyExcerpt"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>;
export const WebhookEndpointsDocument = {"__meta__":{"hash":"bdf4fe62350e4005aeb6ecdb398ab5009e88663be3c85952daa94b55087804f1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoints"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"kinds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}},{"kind":"Field","name":{"kind":"Name","value":"deliveriesWaiting"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<WebhookEndpointsQuery, WebhookEndpointsQueryVariables>;
export const WebhookEventKindsDocument = {"__meta__":{"hash":"382e74e42892f45a5e2d386673a13aef417288ba2764ff19c994742af7a3381e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEventKinds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"webhookEventKinds"}}]}}]} as unknown as DocumentNode<WebhookEventKindsQuery, WebhookEventKindsQueryVariables>;
export const UpdateWebhookEndpointDocument = {"__meta__":{"hash":"294b178ba5695516062ba735a93bcaa532b03f51285eedcf285ab73bbe844baf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"update"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateWebhookEndpointInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"updateWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"update"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateWebhookEndpointPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"kinds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidWebhookUrlError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"urlProblem"}},{"kind":"Field","name":{"kind":"Name","value":"urlProblemFr"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"fieldErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateWebhookEndpointMutation, UpdateWebhookEndpointMutationVariables>;
export const RotateWebhookEndpointSecretDocument = {"__meta__":{"hash":"48935331bc98cf948a704f94584183134fbcc718a0393d01f889d859adb2c21f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateWebhookEndpointSecret"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"rotateWebhookEndpointSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RotateWebhookEndpointSecretPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"previousSecretExpiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<RotateWebhookEndpointSecretMutation, RotateWebhookEndpointSecretMutationVariables>;
export const RedeliverWebhookDocument = {"__meta__":{"hash":"5367b8ff8755dd4eb9d6343fcec56a221ff896fb17049ae53a8ed196973889a3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RedeliverWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"redeliverWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"deliveryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RedeliverWebhookPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"delivery"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<RedeliverWebhookMutation, RedeliverWebhookMutationVariables>;
export const ReplayWebhookEventsDocument = {"__meta__":{"hash":"0f59f41918caa8a9dc0a83a404a5d6a6da17b7124228ec820e1846aeab80e4db"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReplayWebhookEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"replayWebhookEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReplayWebhookEventsPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"eventsQueued"}},{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<ReplayWebhookEventsMutation, ReplayWebhookEventsMutationVariables>;
export const DeleteWebhookEndpointDocument = {"__meta__":{"hash":"99f7f10ec537c2b98d45f3a2225f8e9ae091bbfc866155286829e46b05dd8558"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deleteWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteWebhookEndpointPayload"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedEndpointId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PaymentError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}},{"kind":"Field","name":{"kind":"Name","value":"retryable"}}]}}]}}]}}]} as unknown as DocumentNode<DeleteWebhookEndpointMutation, DeleteWebhookEndpointMutationVariables>;
export const ConsoleWebhookDeliveriesDocument = {"__meta__":{"hash":"0fc559b4aff7339e11031c56f347a86e19915d22f4089ca05a564d64307f5e8c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleWebhookDeliveries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDeliveryFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"webhookDeliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"responseBodyExcerpt"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsoleWebhookDeliveriesQuery, ConsoleWebhookDeliveriesQueryVariables>;
export const ConsoleMerchantsDocument = {"__meta__":{"hash":"e84b1c92e2db0ab37f88928ee92b03969d8fd04bff402b1cd3db40155151def6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleMerchants"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"merchants"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"merchantId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleMerchantsQuery, ConsoleMerchantsQueryVariables>;
export const ConsoleChargesForChartDocument = {"__meta__":{"hash":"39297d18ba754bfd58fb66358ec1dc5913f11858cc8fe29185a17fde4d0d3b9d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleChargesForChart"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ChargeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsoleChargesForChartQuery, ConsoleChargesForChartQueryVariables>;
export const ConsoleSettlementsDocument = {"__meta__":{"hash":"6120511ff383e28f26127322194651a4b278bc5f66760e7fc64c949c1c7ab08f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleSettlements"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SettlementFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"settlements"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"settlementFees"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsoleSettlementsQuery, ConsoleSettlementsQueryVariables>;
export const ConsoleChargesDocument = {"__meta__":{"hash":"db6480d309970260e08bd0776de234a6ed2e2faf6f832f44fb4f7098e9e3bab9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCharges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ChargeFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsoleChargesQuery, ConsoleChargesQueryVariables>;
export const ConsoleCheckoutsDocument = {"__meta__":{"hash":"ebfe8afc7042e1bcd07fbf34cd3513b231b747fe7395c44d1852e0e48d4fd593"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCheckouts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CheckoutFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"checkouts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"chargeReference"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsoleCheckoutsQuery, ConsoleCheckoutsQueryVariables>;
export const ConsoleChargeDocument = {"__meta__":{"hash":"28ac3a942a474242168b91ecb0980c8f64f03face30536d16820368398ec2603"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCharge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"feePercent"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"paymentMethod"}},{"kind":"Field","name":{"kind":"Name","value":"extId"}},{"kind":"Field","name":{"kind":"Name","value":"operatorId"}},{"kind":"Field","name":{"kind":"Name","value":"transactionDate"}},{"kind":"Field","name":{"kind":"Name","value":"cancellationReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"confirmationAttempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"attemptDate"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"ipAddress"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleChargeQuery, ConsoleChargeQueryVariables>;
export const ConsoleCheckoutDocument = {"__meta__":{"hash":"cde49c59d6ef9d98c90fd962fdf97c48ced0d6713c26f898208e18fded5bf22e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCheckout"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"checkout"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"chargeReference"}},{"kind":"Field","name":{"kind":"Name","value":"successUrl"}},{"kind":"Field","name":{"kind":"Name","value":"cancelUrl"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleCheckoutQuery, ConsoleCheckoutQueryVariables>;
export const ConsoleTimelineDocument = {"__meta__":{"hash":"36cefce0e99526e05a8b7e43394b10331624aa9d17c11a22e1c12bb02e97a894"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTimeline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTimelineQuery, ConsoleTimelineQueryVariables>;
export const ConsoleEventsDocument = {"__meta__":{"hash":"b6efedc7e14dc6d346fbcacc58921051987a21139cd1a7382adec7773f04e01f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paymentEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kinds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleEventsSubscription, ConsoleEventsSubscriptionVariables>;
export const ConsoleTransfersDocument = {"__meta__":{"hash":"557c42b99ab5c392145dd44091277078759960f8fb557a307a7161b1fdd14ef0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTransfers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TransferFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"transfers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}},{"kind":"Field","name":{"kind":"Name","value":"extId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsoleTransfersQuery, ConsoleTransfersQueryVariables>;
export const ConsolePayoutBatchesDocument = {"__meta__":{"hash":"506b82d8ac3f1a91f8bbab998a4f9b9178deed8c0019656c53d3fa6a94ecff74"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsolePayoutBatches"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"payoutBatches"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"batchId"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"awaitingApproval"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"startedBy"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleTally"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchTally"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]} as unknown as DocumentNode<ConsolePayoutBatchesQuery, ConsolePayoutBatchesQueryVariables>;
export const ConsolePayoutBatchDocument = {"__meta__":{"hash":"53070b4798969098e869b4c5b45698a6a0af20b41ea2c86d7733077701e45285"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsolePayoutBatch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"payoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleBatchProgress"}},{"kind":"Field","name":{"kind":"Name","value":"batchId"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"startedBy"}},{"kind":"Field","name":{"kind":"Name","value":"cancelledBy"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"wallets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"wallet"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"fees"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"available"}},{"kind":"Field","name":{"kind":"Name","value":"shortfall"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleTally"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchTally"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleBatchProgress"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatch"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"awaitingApproval"}},{"kind":"Field","name":{"kind":"Name","value":"settled"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notSent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}}]}}]} as unknown as DocumentNode<ConsolePayoutBatchQuery, ConsolePayoutBatchQueryVariables>;
export const ConsolePayoutBatchItemsDocument = {"__meta__":{"hash":"9ac796379a3e91e79c386384881e50f4c769af2ce497ded3cb6281309c5d6dbb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsolePayoutBatchItems"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchItemFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"payoutBatch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsolePageInfo"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"recipientPhone"}},{"kind":"Field","name":{"kind":"Name","value":"recipientWallet"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"transferReference"}},{"kind":"Field","name":{"kind":"Name","value":"failure"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"messageFr"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsolePageInfo"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ConsolePayoutBatchItemsQuery, ConsolePayoutBatchItemsQueryVariables>;
export const ConsolePayoutBatchUpdatedDocument = {"__meta__":{"hash":"9430b4546b9e08d9d0a6a0c716cd7e356a52f4118e779fa3722aaa3945ab6e45"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsolePayoutBatchUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payoutBatchUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleBatchProgress"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleTally"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatchTally"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"items"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleBatchProgress"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PayoutBatch"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"awaitingApproval"}},{"kind":"Field","name":{"kind":"Name","value":"settled"}},{"kind":"Field","name":{"kind":"Name","value":"approvedBy"}},{"kind":"Field","name":{"kind":"Name","value":"added"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notSent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleTally"}}]}}]}}]} as unknown as DocumentNode<ConsolePayoutBatchUpdatedSubscription, ConsolePayoutBatchUpdatedSubscriptionVariables>;