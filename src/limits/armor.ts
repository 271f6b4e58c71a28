// GraphQL limits on the document itself (graphql-armor), checked while it is
// parsed (tokens) and validated (depth, aliases, directives, cost): a refused
// document gets a GraphQL error and never executes. Yoga's envelop runs them
// for HTTP, SSE and WebSocket alike (src/http/websocket.ts hands graphql-ws the
// enveloped parse and validate).
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type validate as graphqlValidate } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config.js';

/**
 * Refuses an operation too deep, with too many aliases, tokens or directives, or too costly, before it runs; each limit is told to the
 * caller.
 */
export function armorPlugin(armor: LimitsConfig['armor']): Plugin {
  return EnvelopArmorPlugin({
    maxDepth: { n: armor.maxDepth, flattenFragments: true, exposeLimits: true },
    maxAliases: { n: armor.maxAliases, exposeLimits: true },
    maxTokens: { n: armor.maxTokens, exposeLimits: true },
    maxDirectives: { n: armor.maxDirectives, exposeLimits: true },
    costLimit: { maxCost: armor.maxCost, exposeLimits: true },
    // Suggestions are hidden by graphql-js itself (useNoSuggestions, below).
    blockFieldSuggestion: { enabled: false },
  }) as Plugin;
}

/**
 * Live mode (field suggestions off): graphql-js writes its validation sentences without "Did you mean ...?", which
 * would map the schema, through its own `hideSuggestions` option. Rather than graphql-armor's rewriting of the English
 * after validation, which came after the French was written (src/errors/library-errors.ts reads the sentence as the
 * client gets it) and missed the enum and fragment suggestions.
 */
export function useNoSuggestions(): Plugin {
  return {
    onValidate: ({ validateFn, setValidationFn }) => {
      // graphql 16's own order: (schema, document, rules, options, typeInfo); envelop names the fourth typeInfo.
      const validate = validateFn as unknown as typeof graphqlValidate;
      const hiding: typeof graphqlValidate = (schema, document, rules, options, typeInfo) =>
        validate(schema, document, rules, { ...options, hideSuggestions: true }, typeInfo);
      setValidationFn(hiding as unknown as typeof validateFn);
    },
  };
}

/** Live mode without INTROSPECTION=true: `__schema` and `__type` are refused (`__typename` still works). */
export function useNoIntrospection(): Plugin {
  return {
    onValidate: ({ addValidationRule }) => {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
