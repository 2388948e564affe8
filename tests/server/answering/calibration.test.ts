import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import {
  ANSWER_KINDS,
  answerFromEvidence,
  CALIBRATION_FILE,
  type CalibrationTable,
  fitKind,
  kindOfReason,
  Library,
  mapThrough,
  QUESTION_SHAPES,
  STATED,
  setCalibration,
  TRANSFERRED,
} from '../../../server/answering/engine.ts'
import { TfIdf } from '../../../server/answering/text.ts'
import { fileEntry } from '../../fixtures/library.ts'

/** Confidence as measured: each kind of answer's raw score mapped onto its measured accuracy. */

const shipped = setCalibration(null)
setCalibration(shipped)
afterEach(() => {
  setCalibration(shipped)
})

describe('calibration', () => {
  it('fits a non-decreasing map that follows measured accuracy, moved little by a few answers', () => {
    // right nine times in ten at 0.6, always at 0.9
    const samples = [
      ...Array.from({ length: 20 }, (_, i) => ({ raw: 0.6, right: i % 10 !== 0 })),
      ...Array.from({ length: 20 }, () => ({ raw: 0.9, right: true })),
    ]
    const points = fitKind(samples)
    const low = mapThrough(points, 0.6)
    const high = mapThrough(points, 0.9)
    expect(low).toBeGreaterThan(0.8)
    expect(low).toBeLessThan(0.9)
    expect(high).toBeGreaterThan(low)
    for (let i = 1; i < points.length; i++)
      expect(points[i]?.[1]).toBeGreaterThanOrEqual(points[i - 1]?.[1] ?? 0)
    // two right answers do not make a score certain
    const few = fitKind([
      { raw: 0.5, right: true },
      { raw: 0.5, right: true },
    ])
    expect(mapThrough(few, 0.5)).toBeLessThan(0.7)
    // below the first point, on the line from nothing; above the last, flat
    expect(mapThrough([[0.8, 0.9]], 0.4)).toBeCloseTo(0.45)
    expect(mapThrough([[0.8, 0.9]], 0.95)).toBe(0.9)
    expect(mapThrough(undefined, 0.42)).toBe(0.42)
  })

  it('tells the kinds of answer apart by their reason', () => {
    expect(kindOfReason(STATED)).toBe('stated')
    expect(kindOfReason(TRANSFERRED)).toBe('transferred')
    expect(kindOfReason(null)).toBe('library')
  })

  it('ships a table fitted on the evaluation protocols, only for kinds it measured', () => {
    const file = JSON.parse(readFileSync(CALIBRATION_FILE, 'utf8')) as {
      protocols: string[]
      answers: Record<string, number>
      kinds: CalibrationTable
    }
    expect(file.protocols.length).toBeGreaterThanOrEqual(4)
    for (const [key, points] of Object.entries(file.kinds)) {
      // a kind ('stated'), or a kind on a shape of question ('stated/qualified')
      const [kind = '', shape] = key.split('/')
      expect(ANSWER_KINDS).toContain(kind)
      if (shape) expect(QUESTION_SHAPES).toContain(shape)
      expect(file.answers[kind]).toBeGreaterThanOrEqual(8)
      for (const [raw, p] of points ?? []) {
        expect(raw).toBeGreaterThanOrEqual(0)
        expect(p).toBeLessThanOrEqual(0.99)
      }
    }
  })

  it('states the engine’s answers through the table, and raw scores without one', () => {
    const question = 'Does your product support single sign-on for institutional users?'
    const library = new Library([fileEntry(1, question, 'Yes')])
    const ask = () =>
      answerFromEvidence(
        { text: question, vocabulary: ['Yes', 'No'] },
        library.match(question),
        [],
        new TfIdf(),
      ).candidates[0]?.confidence
    setCalibration(null)
    const raw = ask() ?? 0
    setCalibration({ library: [[raw, 0.6]] })
    expect(ask()).toBe(0.6)
    setCalibration({ stated: [[0.5, 0.99]] })
    expect(ask()).toBe(raw)
  })
})
