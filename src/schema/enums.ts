// GraphQL enums for the service's lower-case tokens: OPA_BF <-> "opa_bf".
// Resolvers keep the upstream token; the enum maps it at the edge.
import {
  CHARGE_STATUSES,
  CHECKOUT_STATUSES,
  CONFIRMATION_METHODS,
  PROVIDERS,
  SETTLEMENT_STATUSES,
  TRANSFER_STATUSES,
  WALLETS,
  ACCOUNT_TYPES,
} from '../upstream/types.js';
import { builder } from './builder.js';

function tokenEnum<T extends string>(name: string, description: string, tokens: readonly T[], describe: Partial<Record<T, string>> = {}) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(tokens.map((token) => [token.toUpperCase(), { value: token, description: describe[token] }])) as Record<
      Uppercase<T>,
      { value: T; description?: string }
    >,
  });
}

/** The GraphQL `Provider` enum: the operators, their names in capitals. */
export const ProviderEnum = tokenEnum('Provider', 'Mobile-money operator. *_BF: Burkina Faso; *_BJ: Benin.', PROVIDERS);
/** The GraphQL `Wallet` enum: the wallets payouts can be sent from. */
export const WalletEnum = tokenEnum('Wallet', 'Operator wallet holding a Transfer Balance, from which payouts are sent.', WALLETS);
/** The GraphQL `CheckoutStatus` enum, each value described. */
export const CheckoutStatusEnum = tokenEnum('CheckoutStatus', 'Where a checkout stands.', CHECKOUT_STATUSES, {
  pending: 'Awaiting payment.',
  success: 'Paid.',
  failed: 'The payment failed.',
});
/** The GraphQL `ChargeStatus` enum, each value described with what the customer or the caller does next. */
export const ChargeStatusEnum = tokenEnum('ChargeStatus', 'Where a charge stands.', CHARGE_STATUSES, {
  send_otp: 'Waiting for the OTP the customer received (submit it with submitChargeOtp).',
  pay_offline: 'Waiting for the customer to confirm on the phone; the outcome arrives by itself.',
  pending: 'Being processed by the operator.',
  success: 'Paid.',
  failed: 'The payment failed.',
  canceled: 'Cancelled.',
});
/** The GraphQL `TransferStatus` enum, each value described. */
export const TransferStatusEnum = tokenEnum('TransferStatus', 'Where a transfer stands.', TRANSFER_STATUSES, {
  pending: 'Queued or being processed.',
  success: 'Delivered to the recipient.',
  failed: 'Not delivered; the amount and fees went back to the wallet.',
});
/** The GraphQL `SettlementStatus` enum, each value described. */
export const SettlementStatusEnum = tokenEnum('SettlementStatus', 'Where a settlement stands.', SETTLEMENT_STATUSES, {
  processing: 'Accepted; can still be cancelled.',
  in_transit: 'On its way to the payout account.',
  success: 'Arrived.',
  cancelled: 'Cancelled before it left.',
});
/** The GraphQL `ConfirmationMethod` enum: OTP or USSD, where the operator offers a choice. */
export const ConfirmationMethodEnum = tokenEnum(
  'ConfirmationMethod',
  'How the customer confirms a charge (only OPB_BF offers a choice).',
  CONFIRMATION_METHODS,
  {
    otp: 'The customer receives an OTP, which you submit.',
    ussd: 'The customer dials a USSD code and confirms on the phone; no OTP.',
  },
);
/** The GraphQL `PayoutAccountType` enum: the kinds of account a settlement is paid to. */
export const AccountTypeEnum = tokenEnum('PayoutAccountType', 'Kind of payout account a settlement goes to.', ACCOUNT_TYPES);
