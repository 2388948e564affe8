/** Which cells of a table's header row hold the question and the answer, if any. */
const QUESTION = /\b(question|requirement|query|criteria|control)\b/i
const ANSWER = /\b(answer|response|reply|comments?|explanation)\b/i

export function qaFromCells(header: string[]): { question: number; answer: number } | null {
  const question = header.findIndex((cell) => QUESTION.test(cell))
  const answer = header.findIndex((cell, i) => i !== question && ANSWER.test(cell))
  return question >= 0 && answer >= 0 ? { question, answer } : null
}
