
      export interface PossibleTypesResultData {
        possibleTypes: {
          [key: string]: string[]
        }
      }
      const result: PossibleTypesResultData = {
  "possibleTypes": {
    "AddPayoutBatchItemsResult": [
      "AddPayoutBatchItemsPayload",
      "IdempotencyConflictError",
      "PayoutBatchFullError",
      "PayoutBatchNotFoundError",
      "PayoutBatchStateError",
      "RateLimitedError",
      "ValidationError"
    ],
    "ApprovePayoutBatchResult": [
      "ApprovePayoutBatchPayload",
      "MerchantSuspendedError",
      "PayoutBatchNotFoundError",
      "PayoutBatchShortfallError",
      "PayoutBatchStateError",
      "RateLimitedError",
      "SelfApprovalError",
      "ServiceUnavailableError",
      "UpstreamError"
    ],
    "CancelPayoutBatchResult": [
      "CancelPayoutBatchPayload",
      "MerchantSuspendedError",
      "PayoutBatchNotFoundError",
      "PayoutBatchStateError",
      "RateLimitedError",
      "ServiceUnavailableError"
    ],
    "CancelSettlementResult": [
      "MerchantSuspendedError",
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
      "MerchantSuspendedError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "CreateChargeResult": [
      "CreateChargePayload",
      "IdempotencyConflictError",
      "InvalidAccountError",
      "MerchantSuspendedError",
      "OtpStillValidError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UnauthorizedChargeProviderError",
      "UnsupportedProviderError",
      "UpstreamError",
      "ValidationError"
    ],
    "CreateMerchantResult": [
      "CreateMerchantPayload",
      "IdempotencyConflictError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "ValidationError"
    ],
    "CreatePayoutBatchResult": [
      "CreatePayoutBatchPayload",
      "IdempotencyConflictError",
      "RateLimitedError",
      "ValidationError"
    ],
    "CreateSettlementResult": [
      "IdempotencyConflictError",
      "InsufficientFundsError",
      "MerchantSuspendedError",
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
      "MerchantSuspendedError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "CreateWebhookEndpointResult": [
      "CreateWebhookEndpointPayload",
      "IdempotencyConflictError",
      "InvalidWebhookUrlError",
      "RateLimitedError",
      "ValidationError",
      "WebhookEndpointLimitError",
      "WebhooksUnavailableError"
    ],
    "DeleteWebhookEndpointResult": [
      "DeleteWebhookEndpointPayload",
      "RateLimitedError",
      "WebhookEndpointNotFoundError",
      "WebhooksUnavailableError"
    ],
    "InitializeCheckoutResult": [
      "IdempotencyConflictError",
      "InitializeCheckoutPayload",
      "MerchantSuspendedError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "Node": [
      "Charge",
      "Checkout",
      "Merchant",
      "PayoutBatch",
      "Settlement",
      "Transfer",
      "WebhookDelivery",
      "WebhookEndpoint"
    ],
    "OffboardMerchantResult": [
      "MerchantNotFoundError",
      "OffboardMerchantPayload",
      "RateLimitedError",
      "ServiceUnavailableError"
    ],
    "PaymentError": [
      "BatchSizeLimitExceededError",
      "IdempotencyConflictError",
      "InsufficientFundsError",
      "InvalidAccountError",
      "InvalidWebhookUrlError",
      "MerchantNotFoundError",
      "MerchantOffboardedError",
      "MerchantSuspendedError",
      "NotFoundError",
      "OtpExpiredError",
      "OtpInvalidError",
      "OtpStillValidError",
      "PaymentAccountMissingError",
      "PayoutBatchFullError",
      "PayoutBatchNotFoundError",
      "PayoutBatchShortfallError",
      "PayoutBatchStateError",
      "RateLimitedError",
      "SelfApprovalError",
      "ServiceUnavailableError",
      "SettlementNotCancellableError",
      "TransferFailedError",
      "UnauthorizedChargeProviderError",
      "UnsupportedProviderError",
      "UpstreamError",
      "ValidationError",
      "WebhookDeliveryNotFoundError",
      "WebhookEndpointLimitError",
      "WebhookEndpointNotFoundError",
      "WebhooksUnavailableError"
    ],
    "RedeliverWebhookResult": [
      "RateLimitedError",
      "RedeliverWebhookPayload",
      "WebhookDeliveryNotFoundError",
      "WebhooksUnavailableError"
    ],
    "ReplayWebhookEventsResult": [
      "RateLimitedError",
      "ReplayWebhookEventsPayload",
      "WebhookEndpointNotFoundError",
      "WebhooksUnavailableError"
    ],
    "RotateMerchantApiKeyResult": [
      "MerchantNotFoundError",
      "MerchantOffboardedError",
      "RateLimitedError",
      "RotateMerchantApiKeyPayload",
      "ServiceUnavailableError",
      "ValidationError"
    ],
    "RotateWebhookEndpointSecretResult": [
      "RateLimitedError",
      "RotateWebhookEndpointSecretPayload",
      "WebhookEndpointNotFoundError",
      "WebhooksUnavailableError"
    ],
    "SendTestWebhookResult": [
      "RateLimitedError",
      "SendTestWebhookPayload",
      "WebhookEndpointNotFoundError",
      "WebhooksUnavailableError"
    ],
    "StartPayoutBatchResult": [
      "MerchantSuspendedError",
      "PayoutBatchNotFoundError",
      "PayoutBatchShortfallError",
      "PayoutBatchStateError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "StartPayoutBatchPayload",
      "UpstreamError"
    ],
    "SubmitChargeOtpResult": [
      "InsufficientFundsError",
      "MerchantSuspendedError",
      "NotFoundError",
      "OtpExpiredError",
      "OtpInvalidError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SubmitChargeOtpPayload",
      "UpstreamError",
      "ValidationError"
    ],
    "SuspendMerchantResult": [
      "MerchantNotFoundError",
      "MerchantOffboardedError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SuspendMerchantPayload"
    ],
    "UpdateMerchantResult": [
      "MerchantNotFoundError",
      "MerchantOffboardedError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpdateMerchantPayload",
      "ValidationError"
    ],
    "UpdateWebhookEndpointResult": [
      "InvalidWebhookUrlError",
      "RateLimitedError",
      "UpdateWebhookEndpointPayload",
      "ValidationError",
      "WebhookEndpointNotFoundError",
      "WebhooksUnavailableError"
    ]
  }
};
      export default result;
    