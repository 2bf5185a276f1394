import { toJsonSchema } from '@valibot/to-json-schema';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { GENERIC } from '../../shared/messages.ts';
import { OFFLINE_EXPIRES_HEADER, OFFLINE_OWNER_HEADER } from '../../shared/offline.ts';
import { badRequest, invalidInput } from './errors.ts';
import type { SessionUser } from './session.ts';
import { requireRole } from './session.ts';

// One declaration per call: the shared valibot schemas validate the request (through Fastify's
// validator compiler) and are converted to JSON Schema for the OpenAPI document. Nothing is
// validated twice and no second schema language exists.

type AnySchema = v.GenericSchema;
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

export type Access = 'public' | 'member' | 'admin' | 'signed-in';

type RouteSpec<B, Q, P, A extends Access> = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tags: string[];
  access: A;
  body?: B;
  query?: Q;
  params?: P;
  /** Response schemas by status, for the OpenAPI document. */
  responses?: Record<number, AnySchema>;
  /** Extra Fastify route options (rate limits, body limits). */
  config?: Record<string, unknown>;
  /**
   * A member's own data the app keeps for reading offline (shared/offline.ts): a member's answer (never
   * an admin's) says whose it is in the X-Offline-Owner header.
   */
  offlineCopy?: true;
  handler: (ctx: {
    body: Out<B>;
    query: Out<Q>;
    params: Out<P>;
    /** The signed-in person (always present unless the route is public); identity only ever comes from here. */
    user: A extends 'public' ? SessionUser | undefined : SessionUser;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>;
};

const jsonSchema = (schema: AnySchema) =>
  toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12', typeMode: 'input' }) as Record<
    string,
    unknown
  >;
const withoutDraft = ({ $schema: _, ...rest }: Record<string, unknown>) => rest;

/**
 * valibot words a missing key itself ("Invalid key: Expected ..."); the field's own schema holds our
 * message for an absent value (e.g. AUTH.passwordRequired), so a missing field reads like an empty one.
 */
function withFieldMessages(schema: AnySchema, issues: readonly v.BaseIssue<unknown>[]) {
  return issues.map((issue) => {
    const keys = issue.path?.map((item) => String(item.key));
    if (issue.type !== 'object' || issue.input !== undefined || !keys?.length) return issue;
    let field: AnySchema | undefined = schema;
    for (const key of keys)
      field = (field as { entries?: Record<string, AnySchema> } | undefined)?.entries?.[key];
    const own = field ? v.safeParse(field, undefined) : undefined;
    const message = own && !own.success ? own.issues[0]?.message : undefined;
    return message ? { ...issue, message } : issue;
  });
}

/**
 * A body, when one is sent, is a JSON object on every call. valibot's object takes an array for an
 * object, and a null body read as {} would run a call whose fields are all optional on its defaults
 * (an income run of yesterday for `[]`), so anything else is refused before validation.
 */
async function refuseBodyNotObject(request: FastifyRequest): Promise<void> {
  const { body } = request;
  if (body === undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest([{ field: 'body', message: GENERIC.bodyNotObject }]);
}

export function installSerializer(app: FastifyInstance): void {
  // Handlers return plain objects built by explicit mappers (no password hash can slip through them);
  // the response schemas are documentation.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

export function defineRoute<
  B extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  P extends AnySchema | undefined = undefined,
  A extends Access = Access,
>(app: FastifyInstance, spec: RouteSpec<B, Q, P, A>): void {
  const parts = { body: spec.body, querystring: spec.query, params: spec.params } as const;
  const schema: Record<string, unknown> = { summary: spec.summary, tags: spec.tags };
  for (const [part, s] of Object.entries(parts)) if (s) schema[part] = withoutDraft(jsonSchema(s));
  if (spec.responses) {
    schema.response = Object.fromEntries(
      Object.entries(spec.responses).map(([status, s]) => [status, withoutDraft(jsonSchema(s))]),
    );
  }
  if (spec.access !== 'public') schema.security = [{ session: [] }];
  app.route({
    method: spec.method,
    url: spec.url,
    schema,
    config: spec.config ?? {},
    preValidation: refuseBodyNotObject,
    validatorCompiler: ({ httpPart }) => {
      const valibotSchema = parts[httpPart as keyof typeof parts];
      return (data: unknown) => {
        if (!valibotSchema) return { value: data };
        const result = v.safeParse(valibotSchema, data ?? {});
        return result.success
          ? { value: result.output }
          : { error: invalidInput(withFieldMessages(valibotSchema, result.issues)) };
      };
    },
    handler: async (request, reply) => {
      const user = (
        spec.access === 'public'
          ? request.sessionUser
          : requireRole(request, spec.access as Exclude<Access, 'public'>)
      ) as A extends 'public' ? SessionUser | undefined : SessionUser;
      const result = await spec.handler({
        body: request.body as Out<B>,
        query: request.query as Out<Q>,
        params: request.params as Out<P>,
        user,
        request,
        reply,
      });
      if (spec.offlineCopy && user?.user.role === 'user')
        reply
          .header(OFFLINE_OWNER_HEADER, user.user.id)
          .header(OFFLINE_EXPIRES_HEADER, user.endsAt ?? user.expiresAt);
      return result;
    },
  });
}

/** The Idempotency-Key header of a money-moving call (RULES.md), if the caller sent one. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}
