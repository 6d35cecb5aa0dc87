//! The transposition table: buckets of four 8-byte entries, each holding both score bounds of a
//! position, its best column and the work spent on it.
//!
//! Unlike Pons's table (one value per slot, either an upper or a lower bound, always replaced), an
//! entry keeps the tightest lower *and* upper bound seen, so the null-window probes of the root's
//! narrowing ([`super::solver`]) reuse each other's results, and a bucket keeps the entries that cost
//! the most work (Fhourstones' "big work" replacement, by John Tromp).
//!
//! Keys are hashed by a bijection, `h = key * ODD mod 2^K` for `K = W * (H + 1)` key bits: the bucket
//! is the top `b` bits of `h` and the entry stores the low `K - b` bits, so a hit is exact (no false
//! positive) whenever `K - b <= 32`, which holds on 7 × 6 (`K = 49`) for tables of 4 MiB and more.
//! On bigger boards the stored check is truncated to 32 bits: a false hit has odds of about 2^-32.
//!
//! Clearing is logical: each entry carries the generation it was written in, and
//! [`clear`](Table::clear) makes every older generation invalid without touching memory (the real
//! wipe happens once every 255 clears).

/// One slot: the key's check bits and the packed data (0: empty).
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    data: u32,
}

const WAYS: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct Bucket([Entry; WAYS]);

// data layout.
const LOWER_SHIFT: u32 = 0;
const UPPER_SHIFT: u32 = 6;
const MOVE_SHIFT: u32 = 12;
const WORK_SHIFT: u32 = 16;
const GEN_SHIFT: u32 = 24;
const SCORE_BIAS: i32 = 32;

/// What the table knows about a position: `lower <= score <= upper`, and the column (0-based) that
/// last refuted a window, in the orientation the entry was stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub best: Option<u32>,
}

/// The transposition table; see the module documentation.
pub struct Table {
    buckets: Box<[Bucket]>,
    /// The low `key_bits` bits.
    key_mask: u64,
    /// `key_bits - bits`: the hash's bits below the bucket index.
    low_bits: u32,
    /// Generation written by [`store`](Table::store), 1..=255.
    generation: u32,
    /// Entries of generations below this one are invalid.
    valid_from: u32,
}

const HASH_MUL: u64 = 0x9E37_79B9_7F4A_7C15;

impl Table {
    /// A table of about `mb` MiB (rounded down to a power of two, at least 32 KiB) for keys of
    /// `key_bits` bits.
    pub fn new(mb: usize, key_bits: u32) -> Table {
        let bytes = mb.max(1) << 20;
        let want = (bytes / std::mem::size_of::<Bucket>()).max(1024);
        let mut bits = usize::BITS - 1 - want.leading_zeros();
        bits = bits.min(key_bits);
        Table {
            buckets: zeroed_buckets(1usize << bits),
            key_mask: if key_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            },
            low_bits: key_bits - bits,
            generation: 1,
            valid_from: 1,
        }
    }

    /// Bytes of memory the table holds.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (in O(1) but once every 255 calls).
    pub fn clear(&mut self) {
        if self.generation == 255 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        } else {
            self.generation += 1;
        }
        self.valid_from = self.generation;
    }

    /// Touches every page of the table, so that the operating system's work of handing them over is
    /// done now rather than during a timed search.
    pub fn prefault(&mut self) {
        self.buckets.fill(Bucket::default());
    }

    /// Starts a new search that keeps what the table knows but prefers to overwrite older entries.
    pub fn age(&mut self) {
        if self.generation == 255 {
            self.clear();
        } else {
            self.generation += 1;
        }
    }

    #[inline(always)]
    fn locate(&self, key: u64) -> (usize, u32) {
        let h = key.wrapping_mul(HASH_MUL) & self.key_mask;
        ((h >> self.low_bits) as usize, h as u32)
    }

    /// Hints the processor to load `key`'s bucket.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let (index, _) = self.locate(key);
            let p = self.buckets.as_ptr().wrapping_add(index) as *const i8;
            // SAFETY: a prefetch never faults, and `index` is in bounds anyway.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What the table holds for `key`, if anything valid.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let (index, check) = self.locate(key);
        let bucket = &self.buckets[index];
        for e in &bucket.0 {
            if e.check == check && e.data >> GEN_SHIFT >= self.valid_from {
                return Some(unpack(e.data));
            }
        }
        None
    }

    /// Records `lower <= score <= upper` for `key` (merged with what is known), the best column if
    /// any, and `work` (log2 of the nodes spent, 0..=63).
    #[inline(always)]
    pub fn store(&mut self, key: u64, lower: i32, upper: i32, best: Option<u32>, work: u32) {
        let (index, check) = self.locate(key);
        let generation = self.generation;
        let valid_from = self.valid_from;
        let bucket = &mut self.buckets[index];
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, e) in bucket.0.iter_mut().enumerate() {
            let gen = e.data >> GEN_SHIFT;
            if gen < valid_from {
                // Empty or cleared: as good as free.
                if victim_rank > 0 {
                    victim = i;
                    victim_rank = 0;
                }
                continue;
            }
            if e.check == check {
                let old = unpack(e.data);
                let old_work = (e.data >> WORK_SHIFT) & 63;
                e.data = pack(
                    lower.max(old.lower),
                    upper.min(old.upper),
                    best.or(old.best),
                    work.max(old_work),
                    generation,
                );
                return;
            }
            // Older searches go first, then the cheapest.
            let rank = 1 + ((e.data >> WORK_SHIFT) & 63) + if gen == generation { 64 } else { 0 };
            if rank < victim_rank {
                victim = i;
                victim_rank = rank;
            }
        }
        bucket.0[victim] = Entry {
            check,
            data: pack(lower, upper, best, work, generation),
        };
    }
}

/// `n` empty buckets from zeroed memory, aligned to their size: the operating system hands the pages
/// over as the search first touches them, so a big table costs nothing until it is used.
fn zeroed_buckets(n: usize) -> Box<[Bucket]> {
    let layout = std::alloc::Layout::array::<Bucket>(n).expect("table size fits memory");
    assert!(layout.size() > 0, "a table has buckets");
    // SAFETY: the layout is not zero-sized; a `Bucket` is plain integers, for which all-zero bytes
    // are a valid (empty) value; the pointer comes from the global allocator with the layout of
    // `[Bucket; n]`, which is what `Box<[Bucket]>` frees it with.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut Bucket;
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
    }
}

#[inline(always)]
fn pack(lower: i32, upper: i32, best: Option<u32>, work: u32, generation: u32) -> u32 {
    ((lower + SCORE_BIAS) as u32) << LOWER_SHIFT
        | ((upper + SCORE_BIAS) as u32) << UPPER_SHIFT
        | best.map_or(0, |c| c + 1) << MOVE_SHIFT
        | work.min(63) << WORK_SHIFT
        | generation << GEN_SHIFT
}

#[inline(always)]
fn unpack(data: u32) -> Hit {
    let mv = (data >> MOVE_SHIFT) & 15;
    Hit {
        lower: ((data >> LOWER_SHIFT) & 63) as i32 - SCORE_BIAS,
        upper: ((data >> UPPER_SHIFT) & 63) as i32 - SCORE_BIAS,
        best: mv.checked_sub(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_clear_forgets() {
        let mut t = Table::new(1, 49);
        let key = 0x1_2345_6789_abcd;
        assert_eq!(t.probe(key), None);
        t.store(key, -3, 10, None, 5);
        t.store(key, -20, 4, Some(3), 2);
        assert_eq!(
            t.probe(key),
            Some(Hit {
                lower: -3,
                upper: 4,
                best: Some(3)
            })
        );
        t.age();
        assert!(t.probe(key).is_some(), "ageing keeps entries");
        t.clear();
        assert_eq!(t.probe(key), None);
        for _ in 0..600 {
            t.clear();
        }
        assert_eq!(t.probe(key), None);
    }

    #[test]
    fn keys_in_one_bucket_are_told_apart() {
        let mut t = Table::new(1, 49);
        // Fill far more keys than a bucket holds: none may read another's value.
        for k in 0..100_000u64 {
            t.store(k * 977, (k % 20) as i32 - 10, 10, None, (k % 7) as u32);
        }
        for k in 0..100_000u64 {
            if let Some(hit) = t.probe(k * 977) {
                assert_eq!(hit.lower, (k % 20) as i32 - 10);
            }
        }
    }
}
