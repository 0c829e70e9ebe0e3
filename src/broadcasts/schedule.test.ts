// When runs happen (schedule.ts): At's offset, months that are shorter, users' zones across a
// daylight-saving change, and what is not a time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inUserZone, nextOccurrence, parseAt, runTime } from './schedule.js';

const DAY = 86_400_000;

test('At needs an explicit offset; its offset is kept in minutes', () => {
  assert.deepEqual(parseAt('2026-12-01T09:00:00+01:00'), { ms: Date.parse('2026-12-01T08:00:00Z'), offsetMinutes: 60 });
  assert.deepEqual(parseAt('2026-12-01T09:00Z'), { ms: Date.parse('2026-12-01T09:00:00Z'), offsetMinutes: 0 });
  assert.equal(parseAt('2026-12-01T09:00:00-05:30')?.offsetMinutes, -330);
  for (const bad of ['2026-12-01T09:00:00', '2026-12-01', 'tomorrow', '2026-13-01T09:00:00Z', '']) assert.equal(parseAt(bad), null, bad);
  // what Date.parse takes but is no real time: rolled-over dates, 24:00, offsets no place uses
  for (const bad of ['2027-02-29T09:00:00Z', '2026-04-31T09:00:00Z', '2026-12-01T24:00:00Z', '2026-12-01T09:00:00+14:30', '2026-12-01T09:00:00-12:01', '2026-12-01T09:00:00+01:60'])
    assert.equal(parseAt(bad), null, bad);
  assert.equal(parseAt('2028-02-29T09:00:00+14:00')?.offsetMinutes, 840);
});

test("runs: daily and weekly add days; monthly keeps the day on At's own calendar, or the month's last day", () => {
  const at = Date.parse('2027-01-31T09:00:00+01:00');
  assert.equal(runTime(at, null, 1, 60), at);
  assert.equal(runTime(at, 'day', 3, 60), at + 2 * DAY);
  assert.equal(runTime(at, 'week', 2, 60), at + 7 * DAY);
  assert.equal(new Date(runTime(at, 'month', 2, 60)).toISOString(), '2027-02-28T08:00:00.000Z');
  assert.equal(new Date(runTime(at, 'month', 3, 60)).toISOString(), '2027-03-31T08:00:00.000Z');
  assert.equal(new Date(runTime(at, 'month', 13, 60)).toISOString(), '2028-01-31T08:00:00.000Z');
  // 31 January 00:30 at +01:00 is still 30 January in UTC: the month is At's, not UTC's
  const late = Date.parse('2027-01-31T00:30:00+01:00');
  assert.equal(new Date(runTime(late, 'month', 2, 60)).toISOString(), '2027-02-27T23:30:00.000Z');
});

test("users' zones: At's clock time in the zone, across a daylight-saving change; an unknown zone: null", () => {
  const at = Date.parse('2027-03-27T09:00:00Z');
  assert.equal(new Date(inUserZone(at, 0, 'Asia/Tokyo')!).toISOString(), '2027-03-27T00:00:00.000Z');
  assert.equal(new Date(inUserZone(at, 0, 'Europe/Rome')!).toISOString(), '2027-03-27T08:00:00.000Z', 'winter time, +01:00');
  assert.equal(new Date(inUserZone(at + DAY, 0, 'Europe/Rome')!).toISOString(), '2027-03-28T07:00:00.000Z', 'summer time from that night, +02:00');
  assert.equal(new Date(inUserZone(Date.parse('2027-03-27T09:00:00+01:00'), 60, 'America/New_York')!).toISOString(), '2027-03-27T13:00:00.000Z');
  assert.equal(inUserZone(at, 0, 'Mars/Olympus'), null);
});

test("the next run not before a time: the series keeps At's clock time and its day of the month", () => {
  const at = Date.parse('2027-01-31T09:00:00+01:00');
  assert.equal(nextOccurrence(at, 'day', 60, at - DAY), at);
  assert.equal(nextOccurrence(at, 'day', 60, at + 1), at + DAY);
  assert.equal(nextOccurrence(at, 'day', 60, at + 5 * DAY), at + 5 * DAY);
  assert.equal(nextOccurrence(at, 'week', 60, at + 8 * DAY), at + 14 * DAY);
  assert.equal(new Date(nextOccurrence(at, 'month', 60, Date.parse('2027-02-28T08:00:00Z'))).toISOString(), '2027-02-28T08:00:00.000Z');
  assert.equal(new Date(nextOccurrence(at, 'month', 60, Date.parse('2027-02-28T08:00:01Z'))).toISOString(), '2027-03-31T08:00:00.000Z');
  assert.equal(new Date(nextOccurrence(at, 'month', 60, Date.parse('2029-06-01T00:00:00Z'))).toISOString(), '2029-06-30T08:00:00.000Z');
});
