
      export interface PossibleTypesResultData {
        possibleTypes: {
          [key: string]: string[]
        }
      }
      const result: PossibleTypesResultData = {
  "possibleTypes": {
    "CancelSettlementResult": [
      "NotFoundError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SettlementNotCancellableError",
      "SettlementPayload",
      "UpstreamError"
    ],
    "CreateBulkTransferResult": [
      "BatchSizeLimitExceededError",
      "CreateBulkTransferPayload",
      "IdempotencyConflictError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "CreateChargeResult": [
      "CreateChargePayload",
      "IdempotencyConflictError",
      "InvalidAccountError",
      "OtpStillValidError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UnauthorizedChargeProviderError",
      "UnsupportedProviderError",
      "UpstreamError",
      "ValidationError"
    ],
    "CreateSettlementResult": [
      "IdempotencyConflictError",
      "InsufficientFundsError",
      "PaymentAccountMissingError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SettlementPayload",
      "UpstreamError",
      "ValidationError"
    ],
    "CreateTransferResult": [
      "CreateTransferPayload",
      "IdempotencyConflictError",
      "InsufficientFundsError",
      "InvalidAccountError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "InitializeCheckoutResult": [
      "IdempotencyConflictError",
      "InitializeCheckoutPayload",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "Node": [
      "Charge",
      "Checkout",
      "Settlement",
      "Transfer"
    ],
    "PaymentError": [
      "BatchSizeLimitExceededError",
      "IdempotencyConflictError",
      "InsufficientFundsError",
      "InvalidAccountError",
      "NotFoundError",
      "OtpExpiredError",
      "OtpInvalidError",
      "OtpStillValidError",
      "PaymentAccountMissingError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SettlementNotCancellableError",
      "UnauthorizedChargeProviderError",
      "UnsupportedProviderError",
      "UpstreamError",
      "ValidationError"
    ],
    "SubmitChargeOtpResult": [
      "InsufficientFundsError",
      "NotFoundError",
      "OtpExpiredError",
      "OtpInvalidError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SubmitChargeOtpPayload",
      "UpstreamError",
      "ValidationError"
    ]
  }
};
      export default result;
    