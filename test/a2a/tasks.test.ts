import { expect, test } from 'bun:test'
import { type A2aTask, TaskStore } from '../../runtime/a2a/tasks'

const task = (id: string, input: Record<string, unknown>): A2aTask => ({
  id,
  contextId: 'c',
  skill: 'slugify',
  input,
  state: 'input-required',
  text: '',
  metadata: {},
  receipts: [],
  updatedAt: 0,
})

test('the task store is bounded by count and by bytes, oldest out first, and forgets tasks past their time', () => {
  let now = 0
  const store = new TaskStore(3, 1000, () => now, 100)
  for (const id of ['a', 'b', 'c', 'd']) store.put(task(id, { text: id }))
  expect(store.size).toBe(3)
  expect(store.get('a')).toBeUndefined()
  store.put(task('big', { text: 'x'.repeat(80) }))
  expect(store.heldBytes).toBeLessThanOrEqual(100)
  expect(store.get('big')).toBeDefined()
  expect(store.get('b')).toBeUndefined()
  // storing a task again counts it once
  const before = store.heldBytes
  store.put(store.get('big')!)
  expect(store.heldBytes).toBe(before)
  now = 2000
  expect(store.get('big')).toBeUndefined()
})
