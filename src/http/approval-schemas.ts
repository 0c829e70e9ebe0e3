// The bodies and answers of the approvals routes (agents.md "Tools"), for validation and /docs.
import { Type } from 'typebox';
import { MAX_REASON_CHARS } from '../conversations/approvals.js';

export const ApprovalView = Type.Object({
  ApprovalId: Type.String(),
  UserId: Type.String({ description: 'the conversation whose agent asked' }),
  Tool: Type.String({ description: 'the tool as the model named it (an MCP tool as <server>__<tool>)' }),
  Arguments: Type.Record(Type.String(), Type.Unknown(), { description: "the model's arguments (or the ones a colleague approved instead)" }),
  Status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  At: Type.String({ description: 'when the agent asked; ISO 8601, UTC' }),
  DecidedBy: Type.Optional(Type.String({ description: '"api" (the account token) or the operator\'s e-mail' })),
  Reason: Type.Optional(Type.String({ description: 'why it was rejected, as the model read it' })),
});

export const ApprovalList = Type.Object({ Result: Type.Array(ApprovalView, { description: 'pending first (the longest waiting first), then the latest decided' }) });

// Query strings are not coerced: the number is read by hand so that a bad one gets a clear 400.
export const ApprovalQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ maxLength: 12 })),
    userid: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "one conversation's approvals only (the console's conversation view)" })),
  },
  { additionalProperties: false },
);

export const ApproveBody = Type.Object(
  {
    Arguments: Type.Optional(
      Type.Record(Type.String({ maxLength: 128 }), Type.Unknown(), {
        maxProperties: 100,
        description: "arguments to make the call with instead of the model's; checked against the tool's parameters",
      }),
    ),
  },
  { additionalProperties: false },
);

export const RejectBody = Type.Object({ Reason: Type.Optional(Type.String({ maxLength: MAX_REASON_CHARS, description: 'told to the model with the refusal' })) }, { additionalProperties: false });
