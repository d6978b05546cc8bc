import { type AnyElysia, Elysia } from 'elysia'
import type { Logger } from '../sdk'
import { errorAnswer } from './error-answer'
import { newRequestId } from './respond'

/**
 * The routes as an app of their own that answers like the main one when something throws (runtime/http/error-answer.ts:
 * the one error shape, logged with its request id, database errors 503; a bare Elysia app would answer 500 with the
 * raw error message).
 */
export const contained = (routes: AnyElysia, log: Logger) =>
  new Elysia().onError(({ error, code }) => errorAnswer(error, code, newRequestId(), log)).use(routes)
