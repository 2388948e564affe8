import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { STALE_PREFIX } from '../../../server/answering/age.ts'
import {
  AGE_BANDS,
  ANSWER_KINDS,
  ageBandOf,
  answerFromEvidence,
  CALIBRATION_FILE,
  type CalibrationTable,
  fitKind,
  kindOfReason,
  Library,
  mapThrough,
  pointsFor,
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
      pooled?: Record<string, { from: string; answers: number }>
      kinds: CalibrationTable
    }
    expect(file.protocols.length).toBeGreaterThanOrEqual(4)
    for (const [key, points] of Object.entries(file.kinds)) {
      // a kind ('stated'), a kind on a shape of question ('stated/qualified'), or a kind resting
      // on a library entry of an age band ('library@2y+')
      const [head = '', band] = key.split('@')
      const [kind = '', shape] = head.split('/')
      expect(ANSWER_KINDS).toContain(kind)
      if (shape) expect(QUESTION_SHAPES).toContain(shape)
      if (band) expect(AGE_BANDS.map((b) => b.band)).toContain(band)
      // measured on eight answers of its own or more, or (a document's denial, another party's
      // sentence) on the derived answers pooled
      expect(
        Math.max(file.answers[kind] ?? 0, file.pooled?.[kind]?.answers ?? 0),
        key,
      ).toBeGreaterThanOrEqual(8)
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

  it('states a Yes written in a free-text cell as measured, as it states one from a dropdown', () => {
    // a form without dropdowns (a portal export's Response column): the library's Yes is the
    // answer's text, with no choice of its own
    const question = 'Does your product support single sign-on for institutional users?'
    const library = new Library([fileEntry(1, question, 'Yes', 'Through SAML 2.0.')])
    const ask = (vocabulary: string[] | null) =>
      answerFromEvidence({ text: question, vocabulary }, library.match(question), [], new TfIdf())
        .candidates[0]
    setCalibration(null)
    const raw = ask(null)?.confidence ?? 0
    setCalibration({ library: [[raw, 0.6]] })
    const free = ask(null)
    expect(free?.choice ?? null).toBeNull()
    expect(free?.text).toMatch(/^Yes/)
    expect(free?.confidence).toBe(0.6)
    expect(ask(['Yes', 'No'])?.confidence).toBe(0.6)
  })

  it('reads an answer from a dated library entry through its age band’s points', () => {
    expect(ageBandOf(0)).toBe('0-6m')
    expect(ageBandOf(200)).toBe('6-12m')
    expect(ageBandOf(400)).toBe('1-2y')
    expect(ageBandOf(1000)).toBe('2y+')
    const table: CalibrationTable = {
      library: [[0.9, 0.9]],
      'library/single': [[0.9, 0.85]],
      'library@6-12m': [[0.9, 0.7]],
    }
    // its band's points; without an age, the kind's on the shape, else the kind's
    expect(pointsFor(table, 'library', 'single', 200)).toEqual([[0.9, 0.7]])
    expect(pointsFor(table, 'library', 'single')).toEqual([[0.9, 0.85]])
    expect(pointsFor(table, 'library', null)).toEqual([[0.9, 0.9]])
    // a band with no points of its own: the kind's on the shape, else the kind's
    expect(pointsFor(table, 'library', 'single', 1000)).toEqual([[0.9, 0.85]])
    expect(pointsFor(table, 'library', null, 1000)).toEqual([[0.9, 0.9]])
    // a band speaks only for the scores it measured: below its first point, the kind's
    expect(pointsFor(table, 'library', 'single', 200, 0.95)).toEqual([[0.9, 0.7]])
    expect(pointsFor(table, 'library', 'single', 200, 0.6)).toEqual([[0.9, 0.85]])
  })

  it('states a dated library answer at its band’s accuracy, a stale one too (issue 38: no cap; its staleness is said, not priced twice)', () => {
    const question = 'Does your product support single sign-on for institutional users?'
    const asOf = new Date('2024-10-04T00:00:00Z')
    const daysBefore = (days: number) => new Date(asOf.getTime() - days * 86_400_000)
    const dated = (days: number) => {
      const reviewedAt = daysBefore(days)
      return {
        ...fileEntry(1, question, 'Yes'),
        reviewedAt,
        staleAt: new Date(reviewedAt.getTime() + 365 * 86_400_000),
      }
    }
    const ask = (entry: ReturnType<typeof fileEntry>) =>
      answerFromEvidence(
        { text: question, vocabulary: ['Yes', 'No'], asOf },
        new Library([entry]).match(question),
        [],
        new TfIdf(),
      ).candidates[0]
    setCalibration({
      library: [[0.5, 0.97]],
      'library@6-12m': [[0.5, 0.88]],
      'library@2y+': [[0.5, 0.99]],
    })
    // a candidate with an age picks its band's points
    const recent = ask(dated(200))
    expect(recent?.ageDays).toBe(200)
    expect(recent?.confidence).toBe(0.88)
    // without an age, the kind's
    const undated = ask(fileEntry(1, question, 'Yes'))
    expect(undated?.ageDays).toBeUndefined()
    expect(undated?.confidence).toBe(0.97)
    // an age band without points of its own: the kind's
    expect(ask(dated(100))?.confidence).toBe(0.97)
    // a stale entry's answer is stated at its band's measured accuracy, and says it is stale
    const stale = ask(dated(800))
    expect(stale?.ageDays).toBe(800)
    expect(stale?.confidence).toBe(0.99)
    expect(stale?.reason).toContain(STALE_PREFIX)
  })
})
