import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors.ts';
import { checkPayloadShape, refuseUnstorableText } from '../edge/validate.ts';

/** Why tool arguments, as they arrived, are refused; null when they may go on to the tool. */
function refusalOf(args: unknown): ApiError | null {
  try {
    checkPayloadShape(args, 'arguments');
    refuseUnstorableText({ arguments: args });
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * Connects `server` to `transport`, checking every tool call's arguments as
 * the API checks a request body, before the SDK's schemas parse them (which
 * would silently drop a top-level `__proto__` key): a refused call is answered
 * as a tool error carrying the API's code and message (`{ "error":
 * "PROTO_KEY", "message": "arguments.__proto__: the key ..." }`, `{ "error":
 * "bad_request", "message": "arguments.body contains a NUL character" }`) and
 * never reaches a tool. A title or name is let through: the API cleans it.
 */
export async function connectGuarded(server: McpServer, transport: Transport): Promise<void> {
  await server.connect(transport);
  // connect() installed the server's message handler; the guard goes in front of it.
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const refusal = refusalOf(message.params?.arguments);
      if (refusal) {
        const result = { content: [{ type: 'text', text: JSON.stringify(refusal.toBody()) }], isError: true };
        transport.send({ jsonrpc: '2.0', id: message.id, result }).catch((error: unknown) => transport.onerror?.(error as Error));
        return;
      }
    }
    deliver(message, extra);
  };
}
