// GraphQL limits on the document itself (graphql-armor), checked while it is
// parsed (tokens) and validated (depth, aliases, directives, cost): a refused
// document gets a GraphQL error and never executes. Yoga's envelop runs them
// for HTTP, SSE and WebSocket alike (src/http/websocket.ts hands graphql-ws the
// enveloped parse and validate).
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config.js';

export function armorPlugin(armor: LimitsConfig['armor']): Plugin {
  return EnvelopArmorPlugin({
    maxDepth: { n: armor.maxDepth, flattenFragments: true, exposeLimits: true },
    maxAliases: { n: armor.maxAliases, exposeLimits: true },
    maxTokens: { n: armor.maxTokens, exposeLimits: true },
    maxDirectives: { n: armor.maxDirectives, exposeLimits: true },
    costLimit: { maxCost: armor.maxCost, exposeLimits: true },
    // No mask in place of a suggestion taken out: the sentence stays graphql-js's own, which has its French
    // (src/errors/library-errors.ts), rather than carrying a "[Suggestion hidden]" of armor's.
    blockFieldSuggestion: { enabled: !armor.fieldSuggestions, mask: '' },
  }) as Plugin;
}

/** Live mode without INTROSPECTION=true: `__schema` and `__type` are refused (`__typename` still works). */
export function useNoIntrospection(): Plugin {
  return {
    onValidate: ({ addValidationRule }) => {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
