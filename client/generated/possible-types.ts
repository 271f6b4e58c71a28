
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
      "PayoutBatchNotFoundError",
      "PayoutBatchStateError",
      "RateLimitedError",
      "ServiceUnavailableError"
    ],
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
    "CreatePayoutBatchResult": [
      "CreatePayoutBatchPayload",
      "IdempotencyConflictError",
      "RateLimitedError",
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
      "RateLimitedError",
      "ServiceUnavailableError",
      "UpstreamError",
      "ValidationError"
    ],
    "Node": [
      "Charge",
      "Checkout",
      "PayoutBatch",
      "Settlement",
      "Transfer",
      "WebhookDelivery",
      "WebhookEndpoint"
    ],
    "PaymentError": [
      "BatchSizeLimitExceededError",
      "IdempotencyConflictError",
      "InsufficientFundsError",
      "InvalidAccountError",
      "InvalidWebhookUrlError",
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
      "NotFoundError",
      "OtpExpiredError",
      "OtpInvalidError",
      "RateLimitedError",
      "ServiceUnavailableError",
      "SubmitChargeOtpPayload",
      "UpstreamError",
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
    