/*
 * LocationWire v1: the device's upload queue (UploadQueue) and the server's ingest ledger (IngestLedger),
 * over a network that loses, duplicates and reorders messages.
 *
 * Written from the specification text only: proto/README.md ("Identity, idempotency and de-duplication",
 * "Loss is visible", "Acknowledgements") and the comments of proto/locationwire/v1/location_batch.proto and
 * batch_ack.proto. The tags in the comments (§ack-scope, ...) are the spec's own. model/README.md says what is
 * modelled, what is abstracted away, the bounds, and how to run it (scripts/model-check.sh).
 *
 * Checked in every state the search stores (normalize, at the end of every atomic step):
 *   INV1  the server never stores a key twice                                      §fix-key
 *   INV2  the device never deletes a fix the server has not stored or refused       §ack-table, §ack-scope
 *   INV3  every gap the ledger can report is a real loss; the device here never
 *         discards, so there is none                                               §sequence-floor, §gap-report
 *   and:  at most MAX_IN_FLIGHT batches in flight, holding different items          §in-flight
 *         the floor never decreases; a server never saw one above the device's     §sequence-floor
 * Checked at the end of a healed run (and pan's end-state check: a healed run that cannot end is an error):
 *   INV4  every recorded, non-defective fix stored exactly once, the defective one
 *         refused and never stored, the device's queue empty                       §ack-table, §no-ack
 *
 * Compile-time options (spin -DNAME=VALUE -a session.pml; the same -D for spin -t when replaying a trail):
 *   N        fixes the device records, sequence numbers 1..N (at most 4)           default 3
 *   DEFECT   the fix the server refuses for good (REJECTED); 0 for none            default 2
 *   NREC     batch records the device keeps: in flight, or given up on             default 3
 *   NREQ     LocationBatch messages the network holds at once                      default 2
 *   NRESP    BatchAck messages the network holds at once                           default 2
 *   MAXDUP   messages the network may duplicate in one run                         default 1
 *   LIVENESS add the LTL property heal_ends_the_run (check with pan -a, without -DSAFETY)
 * Mutants, each of which the checks must catch:
 *   HOLE1                an ACCEPTED range deletes every item the device holds whose sequence lies in it, not
 *                        only the items of the answered batch (the old text: "it applies to the items the device
 *                        has"); INV2 fails
 *   MUT_STORE_TWICE      the server stores a key again instead of answering DUPLICATE; INV1 fails
 *   MUT_FLOOR_AHEAD      the device sends as its floor the lowest sequence of the batch, though it holds lower
 *                        ones in another batch; a §sequence-floor assertion (or INV3) fails
 *   MUT_NO_GIVE_UP       the device never gives up on a batch once the network heals; a healed run can get
 *                        stuck (pan: invalid end state)
 *   MUT_KEEP_DUPLICATES  the device deletes on ACCEPTED only, and keeps DUPLICATE and REJECTED items; a healed
 *                        run resends them forever, which only LIVENESS catches (acceptance cycle)
 */

#ifndef N
#define N 3
#endif
#ifndef DEFECT
#define DEFECT 2
#endif
#ifndef NREC
#define NREC 3
#endif
#ifndef NREQ
#define NREQ 2
#endif
#ifndef NRESP
#define NRESP 2
#endif
#ifndef MAXDUP
#define MAXDUP 1
#endif

/* The packing below holds sequence numbers 1..4 (items in 5 bits, floors in 3), at most 3 copies of a batch
 * (2 bits) and at most 15 table entries (16-bit masks). */
#if N < 1 || N > 4
#error "N must be 1 to 4"
#endif
#if DEFECT < 0 || DEFECT > N
#error "DEFECT must be 0 (none) or a sequence number 1..N"
#endif
#if NREC < 1 || NREQ < 1 || NREQ > 3 || NRESP < 1 || NREC + NREQ + NRESP > 15
#error "need NREC >= 1, 1 <= NREQ <= 3, NRESP >= 1, NREC + NREQ + NRESP <= 15"
#endif

/* TrackingPolicy.max_batches_in_flight; 2 here (the spec's default is 1). §in-flight */
#define MAX_IN_FLIGHT 2

#define BIT(s) (1 << (s))

/* AckResult per sequence number (batch_ack.proto). R_NONE: not covered by any range. */
#define R_NONE  0
#define R_ACC   1   /* ACK_RESULT_ACCEPTED:    stored now       */
#define R_DUP   2   /* ACK_RESULT_DUPLICATE:   stored earlier   */
#define R_REJ   3   /* ACK_RESULT_REJECTED:    refused for good */
#define R_RETRY 4   /* ACK_RESULT_RETRY_LATER: not stored now   */

/* BatchOutcome. The server here never sends UNSPECIFIED (the device ignores such an ack as a whole, which is a
 * lost ack) nor TOO_LARGE (the device keeps everything, as for HOLD). §batch-outcome */
#define O_PROCESSED 1
#define O_HOLD      2

/* ---------------------------------------------------------------------------------------------------------
 * Batches and the network
 *
 * A batch is known by its batch_id, and a batch_id by its batch (§batch-id: a fresh random id for every
 * batch, never given to two batches). So the model keeps one table entry per batch that anything still refers
 * to, and the entry's place in the table is its id:
 *   - the device's record of it (§ack-scope: exactly which items it carried), in flight or given up on;
 *   - copies of it (the LocationBatch) in the network, on the way to the server;
 *   - acks for it (BatchAck) in the network, on the way to the device.
 * An entry nothing refers to any more is cleared, so a new batch gets an id nobody holds: that is what a fresh
 * random 64-bit id is, short of a collision. The table is kept sorted, so that two states that differ only in
 * the ids drawn, or in the order of the messages in the network, are one state: the network is a bag from which
 * any message may be taken (reordering), lost, or duplicated.
 *
 *   bmain[b]  items << 0 (bit s: the fix with sequence s) | fix_sequence_floor << 5 | record << 8 | copies << 10
 *   bresp[b]  up to two acks, a << 14 | c with a >= c; an ack is outcome << 8 | the device's reading of the
 *             result for sequence s in bits 2(s-1) .. 2(s-1)+1 (D_KEEP, D_ACC, D_DEL). Written one result per
 *             sequence number: the ranges of a BatchAck (sorted, non-overlapping) and such a table say the same
 *             thing. The device treats RETRY_LATER and "not covered" alike (keep), and DUPLICATE and REJECTED
 *             alike (delete), so the ack keeps only that; ACCEPTED stays apart for the HOLE1 mutant.
 * ------------------------------------------------------------------------------------------------------- */

#define NB (NREC + NREQ + NRESP)   /* every live batch has a record, a request or an ack: NB entries suffice */

#define REC_NONE       0   /* the device has no record: never sent by this run of the app, answered, or forgotten */
#define REC_IN_FLIGHT  1   /* sent, not answered, not given up on: counts against max_batches_in_flight     */
#define REC_REMEMBERED 2   /* given up on (§no-ack), remembered so that a late ack still applies            */

#define ITEMS(e)  ((e) & 31)
#define FLOOR(e)  (((e) >> 5) & 7)
#define RECST(e)  (((e) >> 8) & 3)
#define COPIES(e) (((e) >> 10) & 3)
#define MAIN(items, floor, rec, copies) ((items) | ((floor) << 5) | ((rec) << 8) | ((copies) << 10))
#define WITH_REC(e, rec)    (((e) & ~(3 << 8)) | ((rec) << 8))
#define WITH_COPIES(e, c)   (((e) & ~(3 << 10)) | ((c) << 10))

#define D_KEEP 0   /* RETRY_LATER, or not covered by any range */
#define D_ACC  1   /* ACCEPTED                                 */
#define D_DEL  2   /* DUPLICATE or REJECTED                    */
#define READING(r) ((r) == R_ACC -> D_ACC : ((r) == R_DUP || (r) == R_REJ -> D_DEL : D_KEEP))

#define ACK_A(r)         ((r) >> 14)
#define ACK_C(r)         ((r) & 16383)
#define OUTCOME(a)       ((a) >> 8)
#define RESULT(a, s)     (((a) >> (2 * ((s) - 1))) & 3)
#define O_STALE          3   /* an ack for a batch the device has no record of: only its existence matters */

short bmain[NB];
int bresp[NB];
byte dups_left = MAXDUP;

/* Set by the last step of a healed run, after INV4. */
bool run_complete;

#ifdef LIVENESS
/* Once the network heals, the run ends (INV4 then holds): no livelock either, such as resending an item
 * forever. A finite run that stops is extended by repeating its last state, so a run that ends satisfies it.
 * No fairness is needed: after the heal the network does nothing and the server acts only on what the device
 * sends. Checked with pan -a (acceptance cycles) on a build without -DSAFETY. */
ltl heal_ends_the_run { [] (heal -> <> run_complete) }
#endif

/* ---------------------------------------------------------------------------------------------------------
 * The device: UploadQueue
 * ------------------------------------------------------------------------------------------------------- */

/* Persisted, survive an app restart. §sequence-consecutive: the counter is persisted no later than the fix it
 * numbers (recording is one atomic step here). */
byte next_seq = 1;   /* the next sequence number to assign */
byte held;           /* bit s: the fix with sequence s is in the queue, sent or not */

/* Batch records (RECST of the table) may be persisted or not: a restart here loses them all. */

/* ---------------------------------------------------------------------------------------------------------
 * The server: IngestLedger, durable (§server-durable). One installation, so the key (device_id, install_id,
 * sequence) of §fix-key is the sequence number.
 * ------------------------------------------------------------------------------------------------------- */

byte stored[N + 1];  /* stored[s]: how many times the fix with sequence s was stored (INV1: at most once) */
byte refused;        /* bit s: the fix with sequence s was answered REJECTED                            */
byte floor_seen;     /* the highest fix_sequence_floor seen (§gap-report)                               */

/* The final phase: nothing lost or duplicated, no HOLD, no RETRY_LATER, no restart, no early give-up. */
bool heal;

/* ---------------------------------------------------------------------------------------------------------
 * Derived after every step from the table and the queue, so that they add no states; the guards of the steps
 * read them (a guard must be decidable before its step starts).
 * ------------------------------------------------------------------------------------------------------- */
byte flight_items;   /* the items of the batches in flight                                            */
byte flight_count;   /* how many batches are in flight                                                */
byte nrec;           /* how many records the device keeps                                             */
byte nreq;           /* how many LocationBatch messages are in the network                            */
byte nresp;          /* how many BatchAck messages are in the network                                 */
short m_flight;        /* bit b: batch b is in flight                                                   */
short m_gone;          /* bit b: batch b is in flight, and neither a copy of it nor an ack is in the network */
short m_rem;           /* bit b: batch b is given up on and remembered                                  */
short m_req;           /* bit b: a copy of batch b is in the network                                    */
short m_srv;           /* bit b: as m_req, and batch b has fewer than two acks in the network           */
short m_resp;          /* bit b: an ack for batch b is in the network                                   */
short m_dupresp;       /* bit b: exactly one ack for batch b is in the network                          */
byte dev_floor = 1;  /* the device's fix_sequence_floor (ghost: checks that it never decreases)       */

/* Scratch of the deterministic (d_step) code, 0 between steps. (Not declared hidden: pan's breadth-first
 * search, which finds the shortest counterexample, refuses hidden variables.) */
byte ci, cj, ck, cp;
int cx, cy;

/* The invariants' verdicts, named so that pan's "assertion violated" says which one failed. 0 between steps. */
bool inv1_stored_at_most_once, inv2_deleted_only_if_stored_or_refused, inv3_no_false_gap, inv4_healed_run_complete;

/* Print a set of fixes (bit s: sequence s) as its sequence numbers, for the trails. */
inline print_items(mask) {
  cp = 1;
  do
  :: cp <= N -> if :: (mask) & BIT(cp) -> printf(" %d", cp) :: else -> skip fi; cp++
  :: else -> break
  od;
  cp = 0
}

/* Choose any set bit b of a non-zero mask. */
inline choose_bit(mask, b) {
  b = 0;
  do
  :: (mask & BIT(b)) != 0 -> break
  :: (mask >> (b + 1)) != 0 -> b++
  od
}

/* The device's floor: the lowest sequence number it holds, or the next one it will assign when it holds
 * none. §sequence-floor */
inline compute_floor(f) {
  f = next_seq;
  ci = N;
  do
  :: ci >= 1 -> if :: held & BIT(ci) -> f = ci :: else -> skip fi; ci--
  :: else -> break
  od
}

/* After every step: clear what no longer matters, sort the table (decreasing), derive, check.
 * Once the device has no record of a batch it never will again (ids are fresh), so an ack for it will be
 * ignored whatever it says: it becomes O_STALE. Once, moreover, no copy of the batch is left in the network,
 * its items and floor no longer matter either, and an entry without acks is free. */
inline normalize() {
  ci = 0;
  do
  :: ci < NB ->
     if
     :: RECST(bmain[ci]) == REC_NONE ->
        if
        :: ACK_A(bresp[ci]) != 0 && ACK_C(bresp[ci]) != 0 -> bresp[ci] = ((O_STALE << 8) << 14) | (O_STALE << 8)
        :: ACK_A(bresp[ci]) != 0 && ACK_C(bresp[ci]) == 0 -> bresp[ci] = (O_STALE << 8) << 14
        :: else -> skip
        fi;
        if
        :: COPIES(bmain[ci]) == 0 -> bmain[ci] = 0
        :: FLOOR(bmain[ci]) <= floor_seen -> bmain[ci] = bmain[ci] & ~(7 << 5)
        :: else -> skip
        fi
     :: else ->
        /* A fix the device no longer holds it never holds again (numbers are never reused): what a record or
         * an ack says about it cannot matter any more (deleting it again changes nothing). The record forgets
         * it once no copy of the batch is left for the server to read; the acks forget it at once. */
        if
        :: COPIES(bmain[ci]) == 0 -> bmain[ci] = (bmain[ci] & ~31) | (ITEMS(bmain[ci]) & held)
        :: else -> skip
        fi;
        /* The floor a batch carries matters only to a server that has seen no higher one (it keeps the
         * highest), and only while a copy is left to read. */
        if
        :: COPIES(bmain[ci]) == 0 || FLOOR(bmain[ci]) <= floor_seen -> bmain[ci] = bmain[ci] & ~(7 << 5)
        :: else -> skip
        fi;
        cx = ACK_A(bresp[ci]);
        cy = ACK_C(bresp[ci]);
        cj = 1;
        do
        :: cj <= N ->
           if
           :: (held & BIT(cj)) == 0 -> cx = cx & ~(3 << (2 * (cj - 1))); cy = cy & ~(3 << (2 * (cj - 1)))
           :: else -> skip
           fi;
           cj++
        :: else -> break
        od;
        if
        :: cx >= cy -> bresp[ci] = (cx << 14) | cy
        :: else -> bresp[ci] = (cy << 14) | cx
        fi
     fi;
     ci++
  :: else -> break
  od;
  ci = 1;
  do
  :: ci < NB ->
     cj = ci;
     do
     :: cj > 0 && (bmain[cj - 1] < bmain[cj] || (bmain[cj - 1] == bmain[cj] && bresp[cj - 1] < bresp[cj])) ->
        cx = bmain[cj - 1]; bmain[cj - 1] = bmain[cj]; bmain[cj] = cx;
        cx = bresp[cj - 1]; bresp[cj - 1] = bresp[cj]; bresp[cj] = cx;
        cj--
     :: else -> break
     od;
     ci++
  :: else -> break
  od;

  flight_items = 0; flight_count = 0; nrec = 0; nreq = 0; nresp = 0;
  m_flight = 0; m_gone = 0; m_rem = 0; m_req = 0; m_srv = 0; m_resp = 0; m_dupresp = 0;
  ci = 0;
  do
  :: ci < NB ->
     if
     :: RECST(bmain[ci]) == REC_IN_FLIGHT ->
        /* §in-flight: the batches in flight hold different items. */
        assert((flight_items & ITEMS(bmain[ci])) == 0);
        flight_items = flight_items | ITEMS(bmain[ci]);
        flight_count++;
        nrec++;
        m_flight = m_flight | BIT(ci);
        if
        :: COPIES(bmain[ci]) == 0 && bresp[ci] == 0 -> m_gone = m_gone | BIT(ci)
        :: else -> skip
        fi
     :: RECST(bmain[ci]) == REC_REMEMBERED -> nrec++; m_rem = m_rem | BIT(ci)
     :: else -> skip
     fi;
     if
     :: COPIES(bmain[ci]) > 0 ->
        nreq = nreq + COPIES(bmain[ci]);
        m_req = m_req | BIT(ci);
        if :: ACK_A(bresp[ci]) == 0 || ACK_C(bresp[ci]) == 0 -> m_srv = m_srv | BIT(ci) :: else -> skip fi
     :: else -> skip
     fi;
     if
     :: ACK_A(bresp[ci]) != 0 && ACK_C(bresp[ci]) != 0 -> nresp = nresp + 2; m_resp = m_resp | BIT(ci)
     :: ACK_A(bresp[ci]) != 0 && ACK_C(bresp[ci]) == 0 ->
        nresp++; m_resp = m_resp | BIT(ci); m_dupresp = m_dupresp | BIT(ci)
     :: else -> skip
     fi;
     ci++
  :: else -> break
  od;
  assert(flight_count <= MAX_IN_FLIGHT && nrec <= NREC && nreq <= NREQ && nresp <= NRESP);

  /* INV1, §fix-key: a server stores a fix at most once per key. */
  ci = 1;
  do
  :: ci <= N -> inv1_stored_at_most_once = stored[ci] <= 1; assert(inv1_stored_at_most_once); ci++
  :: else -> break
  od;

  /* INV2, §ack-table: "a device never deletes what the server did not store or refuse": every fix recorded so
   * far is still in the queue, or stored, or refused. */
  ci = 1;
  do
  :: ci < next_seq ->
     inv2_deleted_only_if_stored_or_refused = (held & BIT(ci)) || stored[ci] > 0 || (refused & BIT(ci));
     assert(inv2_deleted_only_if_stored_or_refused);
     ci++
  :: else -> break
  od;

  /* INV3, §gap-report: a number below the highest floor seen that the server neither stored nor refused is
   * lost, and may be reported as such. The device here never discards a fix: there must be no such number. */
  ci = 1;
  do
  :: ci < floor_seen ->
     inv3_no_false_gap = stored[ci] > 0 || (refused & BIT(ci));
     assert(inv3_no_false_gap);
     ci++
  :: else -> break
  od;

  /* §sequence-floor: the floor never decreases; no server has seen one above the device's. */
  compute_floor(ck);
  assert(ck >= dev_floor);
  dev_floor = ck;
  assert(floor_seen <= dev_floor);

  ci = 0; cj = 0; ck = 0; cx = 0; cy = 0;
  inv1_stored_at_most_once = false; inv2_deleted_only_if_stored_or_refused = false; inv3_no_false_gap = false
}

/* Add ack a to batch b's acks (the pair stays sorted). */
inline add_ack(b, a) {
  if
  :: bresp[b] == 0 -> bresp[b] = a << 14
  :: else ->
     assert(ACK_C(bresp[b]) == 0);
     if
     :: ACK_A(bresp[b]) >= a -> bresp[b] = bresp[b] | a
     :: else -> bresp[b] = (a << 14) | ACK_A(bresp[b])
     fi
  fi
}

/* Remove ack a from batch b's acks. */
inline remove_ack(b, a) {
  if
  :: ACK_A(bresp[b]) == a -> bresp[b] = ACK_C(bresp[b]) << 14
  :: else -> assert(ACK_C(bresp[b]) == a); bresp[b] = ACK_A(bresp[b]) << 14
  fi
}

/* Choose one of batch b's acks. */
inline choose_ack(b, a) {
  if
  :: a = ACK_A(bresp[b])
  :: ACK_C(bresp[b]) != 0 -> a = ACK_C(bresp[b])
  fi
}

active proctype Device() {
  byte b, s, lo, elig, items, f, keep;
  int a;

  do
  /* Record a fix: sequence numbers 1..N, one more each time, the counter persisted with the fix.
   * §sequence-consecutive */
  :: d_step {
       next_seq <= N ->
       printf("device: record fix %d\n", next_seq);
       held = held | BIT(next_seq);
       next_seq++;
       normalize()
     }

  /* Send a batch. §in-flight: at most MAX_IN_FLIGHT batches in flight, holding different items, so only
   * items in no batch in flight are eligible; items of a batch given up on are eligible again (§no-ack).
   * Ordering: the backlog goes oldest first, so the batch is the oldest 1..N eligible items. It gets a fresh id
   * (a free table entry, §batch-id); the record says exactly which items it carried (§ack-scope); its floor is
   * the device's floor now, which is at most its lowest sequence (§sequence-floor). */
  :: atomic {
       flight_count < MAX_IN_FLIGHT && nrec < NREC && nreq < NREQ && (held & ~flight_items) != 0 ->
       d_step {
         elig = held & ~flight_items;
         lo = 1;
         do
         :: (elig & BIT(lo)) == 0 -> lo++
         :: else -> break
         od
       };
       s = lo;
       do
       :: s < N -> s++
       :: break
       od;
       d_step {
         items = elig & (BIT(s + 1) - 2);
         compute_floor(f);
#ifdef MUT_FLOOR_AHEAD
         f = lo;   /* the mutant: claims that every fix below the batch has left the device */
#endif
         assert(f <= lo);
         assert(bmain[NB - 1] == 0 && bresp[NB - 1] == 0);
         bmain[NB - 1] = MAIN(items, f, REC_IN_FLIGHT, 1);
         printf("device: send a new batch of fixes"); print_items(items); printf(", fix_sequence_floor %d\n", f);
         s = 0; lo = 0; elig = 0; items = 0; f = 0;
         normalize()
       }
     }

  /* Receive an ack: any one in the network (it reorders). */
  :: atomic {
       m_resp != 0 ->
       choose_bit(m_resp, b);
       choose_ack(b, a);
       /* §batch-outcome with HOLD: the batch is answered, so its record goes; the spec does not say whether the
        * device may keep the record for another ack of the same batch. Both are modelled. */
       keep = 0;
       if
       :: true -> skip
       :: OUTCOME(a) == O_HOLD && RECST(bmain[b]) != REC_NONE -> keep = 1
       fi;
       d_step {
         remove_ack(b, a);
         if
         :: RECST(bmain[b]) == REC_NONE ->
            /* §ack-ignore, ack-unknown-batch: never sent, already answered, or forgotten. Nothing changes. */
            printf("device: ignore an ack for a batch it has no record of (ack-unknown-batch)\n")
         :: RECST(bmain[b]) != REC_NONE && OUTCOME(a) == O_HOLD ->
            /* §batch-outcome, §hold-keeps: nothing stored; keep everything, send again later. */
            printf("device: HOLD for the batch of fixes"); print_items(ITEMS(bmain[b])); printf(": keep them\n");
            if
            :: keep -> bmain[b] = WITH_REC(bmain[b], REC_REMEMBERED)
            :: else -> bmain[b] = WITH_REC(bmain[b], REC_NONE)
            fi
         :: RECST(bmain[b]) != REC_NONE && OUTCOME(a) == O_PROCESSED ->
            /* §batch-outcome PROCESSED: apply the ranges. §ack-table: delete on ACCEPTED, DUPLICATE, REJECTED;
             * keep on RETRY_LATER and when not covered. §ack-scope: only the items this batch carried. */
            items = ITEMS(bmain[b]);
            s = 1;
            do
            :: s <= N ->
               if
               :: (held & BIT(s)) &&
#ifdef HOLE1
                  /* The mutant: an ACCEPTED range applies to every item the device holds. */
                  ((items & BIT(s)) || RESULT(a, s) == D_ACC) &&
#else
                  (items & BIT(s)) &&
#endif
#ifdef MUT_KEEP_DUPLICATES
                  RESULT(a, s) == D_ACC ->   /* the mutant: deletes on ACCEPTED only */
#else
                  RESULT(a, s) != D_KEEP ->
#endif
                  if
                  :: RESULT(a, s) == D_ACC -> printf("device: delete fix %d (ACCEPTED)\n", s)
                  :: else -> printf("device: delete fix %d (DUPLICATE or REJECTED)\n", s)
                  fi;
                  /* INV2, at the deletion itself. */
                  inv2_deleted_only_if_stored_or_refused = stored[s] > 0 || (refused & BIT(s));
                  assert(inv2_deleted_only_if_stored_or_refused);
                  held = held & ~BIT(s)
               :: else -> skip
               fi;
               s++
            :: else -> break
            od;
            /* Answered: the record goes; another ack for this batch is then ack-unknown-batch. */
            bmain[b] = WITH_REC(bmain[b], REC_NONE)
         fi;
         b = 0; a = 0; s = 0; items = 0; keep = 0;
         normalize()
       }
     }

  /* §no-ack: no ack within the time-out. The device gives up on the batch (it leaves the in-flight count, its
   * items are eligible again) and remembers its items, so that a late ack still applies. Before the heal a
   * time-out may fire at any moment; after it, only for a batch of which nothing is left in the network. */
  :: atomic {
#ifdef MUT_NO_GIVE_UP
       !heal && m_flight != 0 ->   /* the mutant: never gives up once the network heals */
#else
       (!heal && m_flight != 0) || (heal && m_gone != 0) ->
#endif
       if
       :: !heal -> choose_bit(m_flight, b)
       :: else -> choose_bit(m_gone, b)
       fi;
       d_step {
         printf("device: give up on the batch of fixes"); print_items(ITEMS(bmain[b])); printf("\n");
         bmain[b] = WITH_REC(bmain[b], REC_REMEMBERED);
         b = 0;
         normalize()
       }
     }

  /* §no-ack: the device SHOULD remember a batch it gave up on, and may forget it (its late ack is then
   * ack-unknown-batch, which is safe). */
  :: atomic {
       m_rem != 0 ->
       choose_bit(m_rem, b);
       d_step {
         printf("device: forget the batch of fixes"); print_items(ITEMS(bmain[b])); printf("\n");
         bmain[b] = WITH_REC(bmain[b], REC_NONE);
         b = 0;
         normalize()
       }
     }

  /* App restart (killed by the OS or the user): the queue and the counter are persisted; the batch records are
   * lost. (Records that are persisted restart unchanged, which is not restarting; records of which some are
   * persisted are a restart after give-ups and forgets.) */
  :: d_step {
       !heal && nrec > 0 ->
       printf("device: restart, batch records lost\n");
       ci = 0;
       do
       :: ci < NB -> bmain[ci] = WITH_REC(bmain[ci], REC_NONE); ci++
       :: else -> break
       od;
       normalize()
     }

  /* The end of a healed run: every fix recorded, the queue empty, the network drained. */
  :: heal && next_seq > N && held == 0 && nreq == 0 && nresp == 0 -> break
  od;

  /* INV4: every recorded, non-defective fix stored exactly once; the defective one refused, never stored; the
   * queue empty. A healed run that cannot get here stops in an invalid end state, which pan reports. */
  printf("device: healed run complete\n");
  d_step {
    s = 1;
    do
    :: s <= N ->
       if
       :: s == DEFECT -> inv4_healed_run_complete = stored[s] == 0 && (refused & BIT(s))
       :: else -> inv4_healed_run_complete = stored[s] == 1
       fi;
       assert(inv4_healed_run_complete);
       s++
    :: else -> break
    od;
    inv4_healed_run_complete = held == 0 && next_seq == N + 1;
    assert(inv4_healed_run_complete);
    run_complete = true
  }
}

/* ---------------------------------------------------------------------------------------------------------
 * The server: IngestLedger
 * ------------------------------------------------------------------------------------------------------- */

active proctype Server() {
  byte b, s, r, items, retry, lastS, lastR, g;
  bool hold, spans;
  int a, w;

end:
  do
  /* Take a batch from the network (any one), store, answer. Storing and answering are one step (§server-durable:
   * ACCEPTED only for what is stored durably; a crash between the two is a lost ack). */
  :: atomic {
       m_srv != 0 && nresp < NRESP ->
       choose_bit(m_srv, b);
       items = ITEMS(bmain[b]);
       /* §batch-outcome, §hold-keeps: a passing condition is HOLD, which stores nothing. Not after the heal. */
       hold = false;
       if
       :: true -> skip
       :: !heal -> hold = true
       fi;
       /* RETRY_LATER: for any new item, not stored now, for a passing reason. Not after the heal. */
       retry = 0;
       s = 1;
       do
       :: s <= N ->
          if
          :: !hold && !heal && (items & BIT(s)) && s != DEFECT && stored[s] == 0 ->
             if
             :: true -> skip
             :: retry = retry | BIT(s)
             fi
          :: else -> skip
          fi;
          s++
       :: else -> break
       od;
       /* Ranges: one per item, or ranges that span the numbers between two items with the same result ("a range
        * MAY span numbers the batch did not contain", §ack-scope). */
       spans = false;
       if
       :: true -> skip
       :: !hold -> spans = true
       fi;
       d_step {
         bmain[b] = WITH_COPIES(bmain[b], COPIES(bmain[b]) - 1);
         /* §gap-report: the server keeps the highest floor it has seen. */
         if
         :: FLOOR(bmain[b]) > floor_seen -> floor_seen = FLOOR(bmain[b])
         :: else -> skip
         fi;
         a = 0; w = 0;
         if
         :: hold ->
            printf("server: HOLD the batch of fixes"); print_items(items); printf("\n");
            a = O_HOLD << 8
         :: else ->
            /* PROCESSED, a result for every item of the batch. §fix-key: a key stored before is DUPLICATE.
             * §server-durable: ACCEPTED after storing; REJECTED only for the defective fix, which no resend
             * cures (so it is rejected again if sent again). */
            s = 1;
            do
            :: s <= N ->
               if
               :: (items & BIT(s)) == 0 -> r = R_NONE
               :: (items & BIT(s)) && s == DEFECT -> r = R_REJ; refused = refused | BIT(s)
#ifdef MUT_STORE_TWICE
               :: (items & BIT(s)) && s != DEFECT && stored[s] > 0 -> stored[s]++; r = R_ACC
#else
               :: (items & BIT(s)) && s != DEFECT && stored[s] > 0 -> r = R_DUP
#endif
               :: (items & BIT(s)) && s != DEFECT && stored[s] == 0 && (retry & BIT(s)) -> r = R_RETRY
               :: (items & BIT(s)) && s != DEFECT && stored[s] == 0 && !(retry & BIT(s)) -> stored[s]++; r = R_ACC
               fi;
               w = w | (r << (3 * (s - 1)));
               s++
            :: else -> break
            od;
            if
            :: spans ->
               lastS = 0; lastR = 0; s = 1;
               do
               :: s <= N ->
                  if
                  :: items & BIT(s) ->
                     r = (w >> (3 * (s - 1))) & 7;
                     if
                     :: lastS > 0 && lastR == r ->
                        g = lastS + 1;
                        do
                        :: g < s -> w = w | (r << (3 * (g - 1))); g++
                        :: else -> break
                        od
                     :: else -> skip
                     fi;
                     lastS = s; lastR = r
                  :: else -> skip
                  fi;
                  s++
               :: else -> break
               od
            :: else -> skip
            fi;
            printf("server: PROCESSED the batch of fixes"); print_items(items); printf(":");
            /* the ranges: runs of one result */
            s = 1;
            do
            :: s <= N ->
               r = (w >> (3 * (s - 1))) & 7;
               g = s;
               do
               :: g < N && ((w >> (3 * g)) & 7) == r -> g++
               :: else -> break
               od;
               if
               :: r == R_ACC -> printf(" [%d,%d] ACCEPTED", s, g)
               :: r == R_DUP -> printf(" [%d,%d] DUPLICATE", s, g)
               :: r == R_REJ -> printf(" [%d,%d] REJECTED", s, g)
               :: r == R_RETRY -> printf(" [%d,%d] RETRY_LATER", s, g)
               :: else -> skip
               fi;
               s = g + 1
            :: else -> break
            od;
            printf("\n");
            s = 1;
            do
            :: s <= N -> r = (w >> (3 * (s - 1))) & 7; a = a | (READING(r) << (2 * (s - 1))); s++
            :: else -> break
            od;
            a = a | (O_PROCESSED << 8)
         fi;
         add_ack(b, a);
         b = 0; s = 0; r = 0; items = 0; retry = 0; lastS = 0; lastR = 0; g = 0; hold = false; spans = false;
         a = 0; w = 0;
         normalize()
       }
     }
  od
}

/* ---------------------------------------------------------------------------------------------------------
 * The network's faults, and the heal
 * ------------------------------------------------------------------------------------------------------- */

active proctype Network() {
  byte b;
  int a;

end:
  do
  /* Lose a batch, or an ack (a transport failure, §no-ack). */
  :: atomic {
       !heal && m_req != 0 ->
       choose_bit(m_req, b);
       d_step {
         printf("network: lose a copy of the batch of fixes"); print_items(ITEMS(bmain[b])); printf("\n");
         bmain[b] = WITH_COPIES(bmain[b], COPIES(bmain[b]) - 1);
         b = 0;
         normalize()
       }
     }
  :: atomic {
       !heal && m_resp != 0 ->
       choose_bit(m_resp, b);
       choose_ack(b, a);
       d_step {
         printf("network: lose an ack for the batch of fixes"); print_items(ITEMS(bmain[b])); printf("\n");
         remove_ack(b, a);
         b = 0; a = 0;
         normalize()
       }
     }
  /* Duplicate a batch, or an ack (a retried request, a redelivered message). */
  :: atomic {
       !heal && dups_left > 0 && nreq < NREQ && m_req != 0 ->
       choose_bit(m_req, b);
       d_step {
         printf("network: duplicate the batch of fixes"); print_items(ITEMS(bmain[b])); printf("\n");
         bmain[b] = WITH_COPIES(bmain[b], COPIES(bmain[b]) + 1);
         dups_left--;
         b = 0;
         normalize()
       }
     }
  :: atomic {
       !heal && dups_left > 0 && nresp < NRESP && m_dupresp != 0 ->
       choose_bit(m_dupresp, b);
       d_step {
         printf("network: duplicate the ack for the batch of fixes"); print_items(ITEMS(bmain[b])); printf("\n");
         add_ack(b, ACK_A(bresp[b]));
         dups_left--;
         b = 0;
         normalize()
       }
     }
  /* The heal: from now on nothing is lost or duplicated, the server neither holds nor retries, the app is not
   * killed, and the device gives up only on a batch of which nothing is left in the network. Reordering and
   * everything already in the network go on. */
  :: d_step {
       !heal ->
       printf("network: heal\n");
       heal = true
     }
  od
}
