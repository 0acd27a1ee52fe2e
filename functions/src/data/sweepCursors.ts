/**
 * sweepCursors/{sweep}: where a scheduled sweep that ran out of its time budget
 * stopped, so its next run continues from there (domain/timeBudget.ts). One document
 * per sweep, written by the sweep alone; its `cursor` is the sweep's own shape.
 */
import { FieldValue, type DocumentData } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';

export type SweepName = 'effectsSweep' | 'pointsExpiry' | 'usersSweep';

const cursorRef = (sweep: SweepName) => db().collection('sweepCursors').doc(sweep);

/** The cursor the sweep's last run left, or undefined (none yet: start from the beginning). */
export async function readSweepCursor(sweep: SweepName): Promise<DocumentData | undefined> {
  const cursor: unknown = (await cursorRef(sweep).get()).get('cursor');
  return typeof cursor === 'object' && cursor !== null ? (cursor as DocumentData) : undefined;
}

export async function saveSweepCursor(sweep: SweepName, cursor: DocumentData): Promise<void> {
  await cursorRef(sweep).set({ cursor, updatedAt: FieldValue.serverTimestamp() });
}
