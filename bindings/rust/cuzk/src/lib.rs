//! The safe Rust API of cuzk, a Groth16 prover with a proving engine,
//! Filecoin PoRep C2, PoSt and SnapDeals, over its C ABI (`cuzk-sys`, the
//! declarations of `cuzk.h` and `cuzk_filecoin.h`; `libcuzk.so` found
//! through pkg-config).
//!
//! One type per C handle ([`Pce`], [`Key`], [`Engine`], [`Job`],
//! [`TimelineBuffer`]), released by `Drop`; every failed call is an
//! [`Error`] with the status code and the handle's error text. The handles
//! are `Send` and `Sync` where the C ABI lets any thread use them (all but
//! the timeline buffer, which is `Send`: one drain at a time, hence
//! `&mut self`). Borrowed witnesses ([`Engine::prove_borrowed`]) are slices
//! the library reads in place; the call does not return before the library
//! has released them.
//!
//! The crate is written for the C ABI version [`ABI_VERSION`]: it does not
//! compile against a `cuzk.h` of another version, and every constructor
//! fails with [`ERR_ABI_MISMATCH`] when the `libcuzk.so` loaded at run time
//! has another ([`check_abi`] reports it up front).
//!
//! ```no_run
//! // PoRep C2 of a 2 KiB sector from its C1 output, verified.
//! let c1 = std::fs::read("c1.json")?;
//! let (prover, sector) = ([0u8; 32], 1u64);
//! let shape = cuzk::PorepShape::of_c1(&c1)?;
//! let key = cuzk::Key::porep_setup_dev(&shape)?; // NOT a ceremony: development only
//! let engine = cuzk::Engine::new(None, None)?;
//! let id = engine.add_porep_key(&key, "porep-2k")?;
//! let job = engine.porep_c2_submit(id, &c1, &prover, sector)?;
//! job.wait()?;
//! let proof = job.proofs()?; // 192 bytes a partition
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

/// The raw declarations of `cuzk.h` and `cuzk_filecoin.h` (the `cuzk-sys` crate).
pub use cuzk_sys as ffi;

/// The size of a packed scalar (a little-endian field element).
pub const SCALAR_SIZE: usize = ffi::CUZK_SCALAR_SIZE as usize;
/// The size of one BLS12-381 Groth16 proof (a partition's).
pub const PROOF_SIZE: usize = ffi::CUZK_PROOF_SIZE as usize;
/// The C ABI version (`CUZK_ABI_VERSION`) this binding is written for.
pub const ABI_VERSION: u32 = ffi::ABI_VERSION;
/// The binding's own error code (not the library's): the loaded
/// `libcuzk.so` has another ABI version than [`ABI_VERSION`].
pub const ERR_ABI_MISMATCH: i32 = -1000;

/// What [`Engine::remove_key`] gives back: the bytes returned to the host
/// memory budget and to each device's budget, and whether they were returned
/// before the call did (false: jobs of the key still held it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRemoval {
    /// Bytes given back to the host memory budget.
    pub host_bytes: u64,
    /// Bytes given back to each device's budget (0 on a cpu engine).
    pub device_bytes: u64,
    /// Given back before `remove_key` returned.
    pub freed: bool,
}

/// A failed call: the C function (or the job), the status code (a
/// `CUZK_ERR_*` value of [`ffi`], or [`ERR_ABI_MISMATCH`]) and the library's
/// message (the handle's error text).
#[derive(Debug, Clone)]
pub struct Error {
    /// The C function, or "job <id> (partition <p>)" for a failed job.
    pub op: String,
    /// The status code.
    pub code: i32,
    /// The library's message.
    pub msg: String,
}

/// The short stable name of a status code ("ok", "bad_format", …).
pub fn status_name(code: i32) -> String {
    if code == ERR_ABI_MISMATCH {
        return "abi_mismatch".to_string();
    }
    unsafe { CStr::from_ptr(ffi::cuzk_status_name(code)) }.to_string_lossy().into_owned()
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({}): {}", self.op, status_name(self.code), self.code, self.msg)
    }
}

impl std::error::Error for Error {}

/// The result of a fallible call.
pub type Result<T> = std::result::Result<T, Error>;

fn check(op: &str, st: ffi::cuzk_status, msg: impl FnOnce() -> String) -> Result<()> {
    if st == ffi::CUZK_OK as ffi::cuzk_status {
        Ok(())
    } else {
        Err(Error { op: op.to_string(), code: st, msg: msg() })
    }
}

/// Reads a handle's last error through its cuzk_<object>_last_error (size query, then copy).
fn err_text(get: impl Fn(*mut c_char, usize) -> usize) -> String {
    let n = get(ptr::null_mut(), 0);
    let mut buf = vec![0u8; n + 1];
    get(buf.as_mut_ptr() as *mut c_char, buf.len());
    buf.truncate(n);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The caller buffer of the functions that create a handle.
struct ErrBuf([u8; 1024]);

impl ErrBuf {
    fn new() -> Self {
        ErrBuf([0; 1024])
    }
    fn ptr(&mut self) -> *mut c_char {
        self.0.as_mut_ptr() as *mut c_char
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn text(&self) -> String {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len());
        String::from_utf8_lossy(&self.0[..end]).into_owned()
    }
}

/// The ABI version of the `libcuzk.so` loaded at run time.
pub fn library_abi_version() -> u32 {
    unsafe { ffi::cuzk_abi_version() }
}

/// Fails with [`ERR_ABI_MISMATCH`] when the loaded `libcuzk.so`'s ABI
/// version is not [`ABI_VERSION`], the one this binding is written for.
/// Every constructor of the crate makes the same check.
pub fn check_abi() -> Result<()> {
    let got = library_abi_version();
    if got != ABI_VERSION {
        return Err(Error {
            op: "cuzk_abi_version".to_string(),
            code: ERR_ABI_MISMATCH,
            msg: format!(
                "the loaded libcuzk has C ABI {}, but this Rust binding is written for ABI {} \
                 (install the libcuzk.so.{} that matches it, or the binding of your cuzk)",
                got, ABI_VERSION, ABI_VERSION
            ),
        });
    }
    Ok(())
}

/// [`check_abi`], asked of the library once per process.
fn abi() -> Result<()> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static SEEN: AtomicU32 = AtomicU32::new(0); // 0: not asked yet
    let mut v = SEEN.load(Ordering::Relaxed);
    if v == 0 {
        v = library_abi_version();
        SEEN.store(v, Ordering::Relaxed);
    }
    if v == ABI_VERSION {
        Ok(())
    } else {
        check_abi()
    }
}

/// The library's build description (version, ABI, backends).
pub fn build_info() -> String {
    unsafe { CStr::from_ptr(ffi::cuzk_build_info()) }.to_string_lossy().into_owned()
}

// ---- PCE -------------------------------------------------------------------------

/// A recorded circuit (`cuzk_pce`): its R1CS in the pre-compiled form the
/// engine evaluates.
pub struct Pce(*mut ffi::cuzk_pce);

impl Drop for Pce {
    fn drop(&mut self) {
        unsafe { ffi::cuzk_pce_destroy(self.0) }
    }
}

/// The sizes of a recorded circuit.
pub struct PceCounts {
    /// Public inputs, ONE included.
    pub inputs: u32,
    /// Private (aux) variables.
    pub aux: u32,
    /// Constraints.
    pub constraints: u64,
}

impl Pce {
    /// The built-in SHA-256 preimage circuit for messages of `len` bytes.
    pub fn sha256(len: usize) -> Result<Pce> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_sha256_pce(&mut h, len as _, eb.ptr(), eb.len() as _) };
        check("cuzk_sha256_pce", st, || eb.text())?;
        Ok(Pce(h))
    }

    fn last_error(&self) -> String {
        err_text(|o, n| unsafe { ffi::cuzk_pce_last_error(o, n as _, self.0) as usize })
    }

    /// The circuit's inputs, aux variables and constraints.
    pub fn counts(&self) -> Result<PceCounts> {
        let mut info: ffi::cuzk_pce_info = unsafe { std::mem::zeroed() };
        info.struct_size = std::mem::size_of::<ffi::cuzk_pce_info>() as u32;
        check("cuzk_pce_info_get", unsafe { ffi::cuzk_pce_info_get(&mut info, self.0) }, || self.last_error())?;
        Ok(PceCounts { inputs: info.num_inputs, aux: info.num_aux, constraints: info.num_constraints })
    }
}

/// One partition's witness: packed inputs (starting with ONE) and aux scalars.
pub struct Witness {
    /// Packed input scalars, starting with ONE.
    pub inputs: Vec<u8>,
    /// Packed aux scalars.
    pub aux: Vec<u8>,
}

/// The built-in SHA-256 circuit's witness for one message.
pub fn sha256_witness(msg: &[u8]) -> Result<Witness> {
    abi()?;
    let mut eb = ErrBuf::new();
    let (mut ni, mut na) = (0 as _, 0 as _);
    let st = unsafe {
        ffi::cuzk_sha256_witness(
            ptr::null_mut(),
            0,
            &mut ni,
            ptr::null_mut(),
            0,
            &mut na,
            msg.as_ptr(),
            msg.len() as _,
            eb.ptr(),
            eb.len() as _,
        )
    };
    check("cuzk_sha256_witness (size query)", st, || eb.text())?;
    let mut w = Witness { inputs: vec![0; ni as usize * SCALAR_SIZE], aux: vec![0; na as usize * SCALAR_SIZE] };
    let st = unsafe {
        ffi::cuzk_sha256_witness(
            w.inputs.as_mut_ptr(),
            w.inputs.len() as _,
            &mut ni,
            w.aux.as_mut_ptr(),
            w.aux.len() as _,
            &mut na,
            msg.as_ptr(),
            msg.len() as _,
            eb.ptr(),
            eb.len() as _,
        )
    };
    check("cuzk_sha256_witness", st, || eb.text())?;
    Ok(w)
}

// ---- keys ------------------------------------------------------------------------

/// A proving key (`cuzk_key`): a development key, a bellperson `.params`
/// key, or a Filecoin PoRep, PoSt or update key that carries its circuit.
pub struct Key(*mut ffi::cuzk_key);

impl Drop for Key {
    fn drop(&mut self) {
        unsafe { ffi::cuzk_key_destroy(self.0) }
    }
}

impl Key {
    /// A development key (NOT a ceremony) for `pce`, bellperson convention.
    pub fn setup_dev(pce: &Pce) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe {
            ffi::cuzk_key_setup_dev(&mut h, pce.0, ffi::CUZK_CONVENTION_BELLPERSON as _, 0, eb.ptr(), eb.len() as _)
        };
        check("cuzk_key_setup_dev", st, || eb.text())?;
        Ok(Key(h))
    }

    fn last_error(&self) -> String {
        err_text(|o, n| unsafe { ffi::cuzk_key_last_error(o, n as _, self.0) as usize })
    }

    /// Verifies one proof (192 bytes for a BLS12-381 key, 256 for a BN254 key)
    /// for packed public inputs (without ONE).
    pub fn verify(&self, proof: &[u8], public: &[u8]) -> Result<bool> {
        let mut ok = 0i32;
        let st = unsafe {
            ffi::cuzk_key_verify(
                &mut ok,
                self.0,
                proof.as_ptr(),
                proof.len() as _,
                if public.is_empty() { ptr::null() } else { public.as_ptr() },
                (public.len() / SCALAR_SIZE) as _,
            )
        };
        check("cuzk_key_verify", st, || self.last_error())?;
        Ok(ok == 1)
    }
}

// ---- timeline --------------------------------------------------------------------

/// A timeline event copied out of the C struct.
#[derive(Clone, Debug)]
pub struct Event {
    /// "SYNTH_START", "MSM_H", … (the engine's list of events).
    pub name: String,
    /// The job id; empty when not tied to a job.
    pub job: String,
    /// `CUZK_EVENT_*`: an instant, or a span's start or end.
    pub phase: i32,
    /// Nanoseconds since the engine started.
    pub t_ns: u64,
    /// The partition, −1 when none.
    pub partition: i32,
    /// The worker, −1 when none.
    pub worker: i32,
    /// The device, −1 for host work.
    pub device: i32,
}

fn c_str(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

impl Event {
    fn from_c(ev: &ffi::cuzk_event) -> Event {
        Event {
            name: c_str(ev.name),
            job: c_str(ev.job),
            phase: ev.phase,
            t_ns: ev.t_ns,
            partition: ev.partition,
            worker: ev.worker,
            device: ev.device,
        }
    }
}

/// A buffered timeline sink (`cuzk_timeline_buffer`): an engine given it
/// copies every event into it, up to its capacity (later events are dropped
/// and counted), until the host drains them.
pub struct TimelineBuffer(*mut ffi::cuzk_timeline_buffer);

impl Drop for TimelineBuffer {
    fn drop(&mut self) {
        unsafe { ffi::cuzk_timeline_buffer_destroy(self.0) }
    }
}

impl TimelineBuffer {
    /// A buffer of `capacity` events.
    pub fn new(capacity: usize) -> Result<TimelineBuffer> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_timeline_buffer_create(&mut h, capacity as _, eb.ptr(), eb.len() as _) };
        check("cuzk_timeline_buffer_create", st, || eb.text())?;
        Ok(TimelineBuffer(h))
    }

    fn last_error(&self) -> String {
        err_text(|o, n| unsafe { ffi::cuzk_timeline_buffer_last_error(o, n as _, self.0) as usize })
    }

    /// Moves every waiting event out of the buffer, oldest first. (&mut self:
    /// the strings of one drain stay valid only until the next.)
    pub fn drain(&mut self) -> Result<Vec<Event>> {
        const CHUNK: usize = 256;
        let mut evs: Vec<ffi::cuzk_event> = vec![unsafe { std::mem::zeroed() }; CHUNK];
        let mut out = Vec::new();
        loop {
            let mut n = 0 as _;
            let st = unsafe {
                ffi::cuzk_timeline_buffer_drain(
                    &mut n,
                    evs.as_mut_ptr(),
                    CHUNK as _,
                    std::mem::size_of::<ffi::cuzk_event>() as _,
                    self.0,
                )
            };
            check("cuzk_timeline_buffer_drain", st, || self.last_error())?;
            out.extend(evs[..n as usize].iter().map(Event::from_c));
            if (n as usize) < CHUNK {
                return Ok(out);
            }
        }
    }

    /// The events dropped because the buffer was full.
    pub fn dropped(&self) -> Result<u64> {
        let mut n = 0u64;
        check("cuzk_timeline_buffer_dropped", unsafe { ffi::cuzk_timeline_buffer_dropped(&mut n, self.0) }, || {
            self.last_error()
        })?;
        Ok(n)
    }
}

/// What user_data points to: the host's closure.
struct Callback {
    f: Box<dyn Fn(Event) + Send + Sync>,
}

// Runs on the engine's threads (and inside submit/destroy on ours): quick,
// and never calls engine or job functions. A panic must not unwind into C.
unsafe extern "C" fn on_event(user_data: *mut c_void, ev: *const ffi::cuzk_event) {
    if user_data.is_null() || ev.is_null() {
        return;
    }
    let cb = &*(user_data as *const Callback);
    let ev = &*ev;
    if catch_unwind(AssertUnwindSafe(|| (cb.f)(Event::from_c(ev)))).is_err() {
        std::process::abort();
    }
}

// ---- engine ----------------------------------------------------------------------

/// The proving engine (`cuzk_engine`) with its threads: keys are registered
/// with it, jobs of partitions submitted to it. Dropping it cancels the
/// unfinished jobs and joins its threads.
pub struct Engine {
    h: *mut ffi::cuzk_engine,
    // Retained by the engine as user_data; dropped after cuzk_engine_destroy
    // (fields drop after Drop::drop), when no callback can come any more.
    _callback: Option<Box<Callback>>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        unsafe { ffi::cuzk_engine_destroy(self.h) }
    }
}

impl Engine {
    /// Starts an engine with default sizes; `on_event` gets every timeline
    /// event on the engine's threads, `buffer` (may be None) the same events.
    pub fn new(
        on_event_fn: Option<Box<dyn Fn(Event) + Send + Sync>>,
        buffer: Option<&TimelineBuffer>,
    ) -> Result<Engine> {
        let mut opt: ffi::cuzk_engine_options = unsafe { std::mem::zeroed() };
        unsafe { ffi::cuzk_engine_options_init(&mut opt) };
        let callback = on_event_fn.map(|f| Box::new(Callback { f }));
        let mut table: ffi::cuzk_timeline_callbacks = unsafe { std::mem::zeroed() };
        if let Some(cb) = &callback {
            unsafe { ffi::cuzk_timeline_callbacks_init(&mut table) };
            table.user_data = &**cb as *const Callback as *mut c_void;
            table.on_event = Some(on_event);
            opt.timeline_callbacks = &table; // copied by cuzk_engine_create
        }
        if let Some(b) = buffer {
            opt.timeline_buffer = b.0;
        }
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_engine_create(&mut h, &opt, eb.ptr(), eb.len() as _) };
        check("cuzk_engine_create", st, || eb.text())?;
        Ok(Engine { h, _callback: callback })
    }

    /// The engine's last error text.
    pub fn last_error(&self) -> String {
        err_text(|o, n| unsafe { ffi::cuzk_engine_last_error(o, n as _, self.h) as usize })
    }

    /// Registers `key` with its circuit `pce` under `name`; the id names the
    /// key in [`Engine::submit`].
    pub fn add_key(&self, key: &Key, pce: &Pce, name: &str) -> Result<u32> {
        let name = CString::new(name).expect("key name without NUL");
        let mut id = 0u32;
        let st = unsafe { ffi::cuzk_engine_add_key(&mut id, self.h, key.0, pce.0, name.as_ptr(), 0) };
        check("cuzk_engine_add_key", st, || self.last_error())?;
        Ok(id)
    }

    /// Unregisters `key`: it takes no more jobs (`submit` refuses its id), its
    /// jobs already submitted run to their end, and the engine gives its
    /// memory back when the last of them has let go of it. Returns the bytes
    /// given back to the host memory budget and to each device's budget, and
    /// whether they were given back before the call returned. Ids are never
    /// reused; an unknown or removed id is a `CUZK_ERR_INVALID_ARGUMENT` error.
    pub fn remove_key(&self, key: u32) -> Result<KeyRemoval> {
        let (mut host, mut dev, mut freed) = (0u64, 0u64, 0u32);
        let st = unsafe { ffi::cuzk_engine_remove_key(&mut host, &mut dev, &mut freed, self.h, key) };
        check("cuzk_engine_remove_key", st, || self.last_error())?;
        Ok(KeyRemoval { host_bytes: host, device_bytes: dev, freed: freed != 0 })
    }

    /// Where a registered key's points are while it proves ("host" on a cpu
    /// engine, "resident" on the devices, or "streamed": copied from host
    /// memory at every prove, slower, because a device cannot hold them),
    /// and the device bytes the engine counts as the key's on each device.
    pub fn key_placement(&self, key: u32) -> Result<(&'static str, u64)> {
        let (mut where_, mut bytes) = (0u32, 0u64);
        let st = unsafe { ffi::cuzk_engine_key_placement(&mut where_, &mut bytes, self.h, key) };
        check("cuzk_engine_key_placement", st, || self.last_error())?;
        let name = match where_ {
            ffi::CUZK_KEY_RESIDENT => "resident",
            ffi::CUZK_KEY_STREAMED => "streamed",
            _ => "host",
        };
        Ok((name, bytes))
    }

    /// Where registering `key` on a cuda engine's devices spent its time, in
    /// seconds (each part the slowest device's): the sizes, checks and gather
    /// index lists; the PCE prepared and uploaded; the points uploaded (a
    /// mapped .params file's decoded on the way). Zeros on a cpu engine.
    pub fn key_registration(&self, key: u32) -> Result<(f64, f64, f64)> {
        let (mut layout, mut pce, mut points) = (0f64, 0f64, 0f64);
        let st = unsafe { ffi::cuzk_engine_key_registration(&mut layout, &mut pce, &mut points, self.h, key) };
        check("cuzk_engine_key_registration", st, || self.last_error())?;
        Ok((layout, pce, points))
    }

    /// Queues a job of witness partitions under `key`.
    pub fn submit(&self, key: u32, id: &str, parts: &[Witness]) -> Result<Job> {
        let table: Vec<ffi::cuzk_partition> = parts
            .iter()
            .map(|w| {
                let mut p: ffi::cuzk_partition = unsafe { std::mem::zeroed() };
                unsafe { ffi::cuzk_partition_init(&mut p) };
                p.kind = ffi::CUZK_PARTITION_WITNESS as _;
                p.inputs = w.inputs.as_ptr();
                p.num_inputs = (w.inputs.len() / SCALAR_SIZE) as _;
                p.aux = w.aux.as_ptr();
                p.num_aux = (w.aux.len() / SCALAR_SIZE) as _;
                p
            })
            .collect();
        let cid = CString::new(id).expect("job id without NUL");
        let opt = job_options(&cid);
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_engine_submit(&mut h, self.h, key, table.as_ptr(), table.len() as _, &opt) };
        check("cuzk_engine_submit", st, || self.last_error())?;
        Ok(Job(h))
    }
}

// ---- jobs ------------------------------------------------------------------------

/// A submitted job of partitions (`cuzk_job`). Dropping it releases the
/// handle; an unfinished job keeps running (dropping the engine cancels it).
pub struct Job(*mut ffi::cuzk_job);

impl Drop for Job {
    fn drop(&mut self) {
        unsafe { ffi::cuzk_job_destroy(self.0) }
    }
}

impl Job {
    fn last_error(&self) -> String {
        err_text(|o, n| unsafe { ffi::cuzk_job_last_error(o, n as _, self.0) as usize })
    }

    /// The job's id (as given, or one the engine made).
    pub fn id(&self) -> String {
        c_str(unsafe { ffi::cuzk_job_id(self.0) })
    }

    /// Blocks until the job has ended; Ok when it completed, otherwise its
    /// code, failed partition and message.
    pub fn wait(&self) -> Result<()> {
        self.wait_end()?;
        let (mut code, mut part) = (0i32, -1i32);
        check("cuzk_job_status", unsafe { ffi::cuzk_job_status(&mut code, &mut part, self.0) }, || {
            self.last_error()
        })?;
        check(&format!("job {} (partition {})", self.id(), part), code, || c_str(unsafe { ffi::cuzk_job_message(self.0) }))
    }

    /// Blocks until the job has ended, whatever its outcome.
    fn wait_end(&self) -> Result<()> {
        check("cuzk_job_wait", unsafe { ffi::cuzk_job_wait(self.0, -1) }, || self.last_error())
    }

    /// Cancels the job unless it has already ended ([`Job::wait`] then gives
    /// `CUZK_ERR_CANCELLED`).
    pub fn cancel(&self) -> Result<()> {
        check("cuzk_job_cancel", unsafe { ffi::cuzk_job_cancel(ptr::null_mut(), self.0) }, || self.last_error())
    }

    /// A size query, then the read into a buffer of that size.
    fn read(&self, op: &str, f: impl Fn(*mut u8, usize, &mut usize) -> ffi::cuzk_status) -> Result<Vec<u8>> {
        let mut size = 0usize;
        check(&format!("{} (size query)", op), f(ptr::null_mut(), 0, &mut size), || self.last_error())?;
        let mut buf = vec![0u8; size];
        let len = buf.len();
        check(op, f(buf.as_mut_ptr(), len, &mut size), || self.last_error())?;
        buf.truncate(size);
        Ok(buf)
    }

    /// Partition `p`'s proof (its length from the size query: 192 bytes for a
    /// BLS12-381 key, 256 for a BN254 key).
    pub fn proof(&self, p: usize) -> Result<Vec<u8>> {
        self.read("cuzk_job_proof", |o, n, s| {
            let mut sz = 0 as _;
            let st = unsafe { ffi::cuzk_job_proof(o, n as _, &mut sz, self.0, p as _) };
            *s = sz as usize;
            st
        })
    }

    /// The assembled proof: every partition's proof in partition order.
    pub fn proofs(&self) -> Result<Vec<u8>> {
        self.read("cuzk_job_proofs", |o, n, s| {
            let mut sz = 0 as _;
            let st = unsafe { ffi::cuzk_job_proofs(o, n as _, &mut sz, self.0) };
            *s = sz as usize;
            st
        })
    }

    /// Partition `p`'s packed public inputs (without ONE).
    pub fn public_inputs(&self, p: usize) -> Result<Vec<u8>> {
        self.read("cuzk_job_public_inputs", |o, n, s| {
            let mut sz = 0 as _;
            let st = unsafe { ffi::cuzk_job_public_inputs(o, n as _, &mut sz, self.0, p as _) };
            *s = sz as usize;
            st
        })
    }
}

// Handles are tokens any thread may use at once (cuzk.h's threading rules);
// the timeline buffer's drain is the exception (its strings live until the
// next drain), hence Send only and drain(&mut self).
unsafe impl Send for Pce {}
unsafe impl Sync for Pce {}
unsafe impl Send for Key {}
unsafe impl Sync for Key {}
unsafe impl Send for Engine {}
unsafe impl Sync for Engine {}
unsafe impl Send for Job {}
unsafe impl Sync for Job {}
unsafe impl Send for TimelineBuffer {}

mod borrowed;
mod porep;
pub use borrowed::{BorrowedPartition, Montgomery, QueryDensity};
pub use porep::{PorepShape, Sector};

// A job's options with the library's defaults and the id `cid` (which must
// outlive the submit call).
pub(crate) fn job_options(cid: &CString) -> ffi::cuzk_job_options {
    let mut opt: ffi::cuzk_job_options = unsafe { std::mem::zeroed() };
    unsafe { ffi::cuzk_job_options_init(&mut opt) };
    opt.id = cid.as_ptr();
    opt
}

fn c_path(p: &std::path::Path) -> CString {
    CString::new(p.to_string_lossy().as_bytes()).expect("a path without NUL")
}

impl Pce {
    /// Maps and validates a PCE file (docs/PCE-FORMAT.md).
    pub fn load(path: &std::path::Path) -> Result<Pce> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let p = c_path(path);
        let st = unsafe { ffi::cuzk_pce_load(&mut h, p.as_ptr(), 0, eb.ptr(), eb.len() as _) };
        check("cuzk_pce_load", st, || eb.text())?;
        Ok(Pce(h))
    }
}

impl Key {
    /// The C handle, for calls this crate does not wrap (it stays owned by
    /// the `Key`).
    pub fn as_raw(&self) -> *mut ffi::cuzk_key {
        self.0
    }
    /// Writes the key as a bellperson `.params` file.
    pub fn save_params(&self, path: &std::path::Path) -> Result<()> {
        let p = c_path(path);
        let st = unsafe { ffi::cuzk_key_save_params(self.0, p.as_ptr()) };
        check("cuzk_key_save_params", st, || self.last_error())
    }
    /// A bellperson `.params` key (no PCE, no query densities: register it
    /// with [`Engine::add_key_density`]).
    pub fn load_params(path: &std::path::Path) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let p = c_path(path);
        let st = unsafe { ffi::cuzk_key_load_params(&mut h, p.as_ptr(), 0, 0, eb.ptr(), eb.len() as _) };
        check("cuzk_key_load_params", st, || eb.text())?;
        Ok(Key(h))
    }
}

impl Engine {
    /// The C handle, for calls this crate does not wrap (it stays owned by
    /// the `Engine`).
    pub fn as_raw(&self) -> *mut ffi::cuzk_engine {
        self.h
    }
}

// ---- Filecoin PoSt (WindowPoSt, WinningPoSt) -----------------------------------------

/// A PoSt proof type (cuzk_post_shape): a Filecoin RegisteredPoStProof
/// (`PostShape::registered`) or a custom shape.
#[derive(Clone, Copy, Debug)]
pub struct PostShape(ffi::cuzk_post_shape);

impl PostShape {
    /// The shape of Filecoin's RegisteredPoStProof `id` (0 … 4 WinningPoSt
    /// 2KiB … 64GiB, 5 … 9 WindowPoSt V1, 10 … 14 WindowPoSt V1_2).
    pub fn registered(id: i32) -> Result<PostShape> {
        abi()?;
        let mut s: ffi::cuzk_post_shape = unsafe { std::mem::zeroed() };
        let st = unsafe { ffi::cuzk_post_shape_registered(&mut s, id) };
        // No handle, so no error text: the only failure is an unknown id.
        check("cuzk_post_shape_registered", st, || format!("no registered PoSt proof {} (0 … 14)", id))?;
        Ok(PostShape(s))
    }

    /// WindowPoSt (otherwise WinningPoSt).
    pub fn is_window(&self) -> bool {
        self.0.type_ == ffi::CUZK_POST_WINDOW
    }
    /// The Filecoin RegisteredPoStProof id, or −1 for a custom shape.
    pub fn registered_proof(&self) -> i32 {
        self.0.registered_proof
    }
    /// The 32-byte nodes of a sector.
    pub fn nodes(&self) -> u64 {
        self.0.nodes
    }
    /// The sectors a partition proves.
    pub fn sector_count(&self) -> usize {
        self.0.sector_count as usize
    }
    /// The challenges a sector gets.
    pub fn challenge_count(&self) -> usize {
        self.0.challenge_count as usize
    }

    /// The challenged leaves of each sector of the list a prover proves (in
    /// its order) for `randomness`: `[i][j]` is sector i's challenge j.
    pub fn sector_challenges(&self, randomness: &[u8; 32], sector_ids: &[u64]) -> Result<Vec<Vec<u64>>> {
        let mut leaves = vec![0u64; sector_ids.len() * self.challenge_count()];
        let call = |leaves: &mut Vec<u64>| {
            let mut count = leaves.len() as _;
            let st = unsafe {
                ffi::cuzk_post_sector_challenges(
                    leaves.as_mut_ptr(),
                    &mut count,
                    &self.0,
                    randomness.as_ptr(),
                    sector_ids.as_ptr(),
                    sector_ids.len() as _,
                )
            };
            (st, count as usize)
        };
        let (mut st, mut count) = call(&mut leaves);
        if st == ffi::CUZK_ERR_BUFFER_TOO_SMALL as ffi::cuzk_status {
            // a custom shape whose count we misread: take the size needed
            leaves.resize(count, 0);
            let again = call(&mut leaves);
            st = again.0;
            count = again.1;
        }
        let kind = if self.is_window() { "WindowPoSt" } else { "WinningPoSt" };
        check("cuzk_post_sector_challenges", st, || format!("{} sectors of a {} shape", sector_ids.len(), kind))?;
        if sector_ids.is_empty() {
            return Ok(Vec::new());
        }
        let per = count / sector_ids.len();
        Ok(leaves[..per * sector_ids.len()].chunks(per.max(1)).map(|c| c.to_vec()).collect())
    }

    /// The numbers of every faulty sector among the vanilla proofs (none:
    /// all check), checked as `Engine::post_submit` checks them, with the
    /// first fault's reason; bytes that do not read are an error.
    pub fn check_vanilla<V: AsRef<[u8]>>(
        &self,
        randomness: &[u8; 32],
        vanilla: &[V],
        first_partition: u32,
    ) -> Result<(Vec<u64>, String)> {
        let (ptrs, lens) = vanilla_table(vanilla);
        let mut faulty = vec![0u64; vanilla.len() + 1];
        let mut count = faulty.len() as _;
        abi()?;
        let mut eb = ErrBuf::new();
        let st = unsafe {
            ffi::cuzk_post_check_vanilla(
                faulty.as_mut_ptr(),
                &mut count,
                &self.0,
                randomness.as_ptr(),
                ptrs.as_ptr(),
                lens.as_ptr(),
                vanilla.len() as _,
                first_partition,
                eb.ptr(),
                eb.len() as _,
            )
        };
        check("cuzk_post_check_vanilla", st, || eb.text())?;
        faulty.truncate(count as usize);
        Ok((faulty, eb.text()))
    }
}

impl Key {
    /// A development PoSt key (NOT a ceremony) for `shape`.
    pub fn post_setup_dev(shape: &PostShape) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_post_key_setup_dev(&mut h, &shape.0, 0, eb.ptr(), eb.len() as _) };
        check("cuzk_post_key_setup_dev", st, || eb.text())?;
        Ok(Key(h))
    }

    /// A PoSt proving key for `shape` mapped from a bellperson .params file
    /// (e.g. Filecoin's v28-proof-of-spacetime-fallback-…params).
    pub fn post_load(shape: &PostShape, params: &std::path::Path) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let p = c_path(params);
        let st = unsafe { ffi::cuzk_post_key_load(&mut h, &shape.0, p.as_ptr(), 0, eb.ptr(), eb.len() as _) };
        check("cuzk_post_key_load", st, || eb.text())?;
        Ok(Key(h))
    }

    /// Verifies a PoSt proof (192 bytes a partition) of the sectors
    /// (`sector_ids`, `comm_rs`, in the prover's order) for `randomness`,
    /// partitions numbered from `first_partition`; the key is a PoSt key (or
    /// verifying key) of the shape's circuit.
    pub fn post_verify(
        &self,
        shape: &PostShape,
        randomness: &[u8; 32],
        sector_ids: &[u64],
        comm_rs: &[[u8; 32]],
        first_partition: u32,
        proof: &[u8],
    ) -> Result<bool> {
        if sector_ids.len() != comm_rs.len() {
            return Err(Error {
                op: "post_verify".to_string(),
                code: ffi::CUZK_ERR_INVALID_ARGUMENT as i32,
                msg: format!("{} sector numbers but {} comm_r", sector_ids.len(), comm_rs.len()),
            });
        }
        let flat: Vec<u8> = comm_rs.iter().flat_map(|c| c.iter().copied()).collect();
        let mut ok = 0i32;
        let st = unsafe {
            ffi::cuzk_post_verify(
                &mut ok,
                self.0,
                &shape.0,
                randomness.as_ptr(),
                sector_ids.as_ptr(),
                flat.as_ptr(),
                sector_ids.len() as _,
                first_partition,
                proof.as_ptr(),
                proof.len() as _,
            )
        };
        check("cuzk_post_verify", st, || self.last_error())?;
        Ok(ok == 1)
    }
}

impl Engine {
    /// Registers a key that carries its circuit (a PoSt, PoRep or update
    /// key: pce NULL).
    pub fn add_post_key(&self, key: &Key, name: &str) -> Result<u32> {
        let name = CString::new(name).expect("key name without NUL");
        let mut id = 0u32;
        let st = unsafe { ffi::cuzk_engine_add_key(&mut id, self.h, key.0, ptr::null_mut(), name.as_ptr(), 0) };
        check("cuzk_engine_add_key", st, || self.last_error())?;
        Ok(id)
    }

    /// Queues the PoSt of `vanilla.len()` sectors (`vanilla[i]`: sector i's
    /// vanilla proof bytes, borrowed for the call) as partitions
    /// `first_partition`, `first_partition + 1`, … under `key`, a PoSt key of
    /// the proof type. The proofs are read and checked before anything is
    /// queued: a bad one fails here (bad_length, bad_format), naming the sector.
    pub fn post_submit<V: AsRef<[u8]>>(
        &self,
        key: u32,
        randomness: &[u8; 32],
        vanilla: &[V],
        first_partition: u32,
    ) -> Result<Job> {
        let (ptrs, lens) = vanilla_table(vanilla);
        let mut h = ptr::null_mut();
        let st = unsafe {
            ffi::cuzk_post_submit(
                &mut h,
                self.h,
                key,
                randomness.as_ptr(),
                ptrs.as_ptr(),
                lens.as_ptr(),
                vanilla.len() as _,
                first_partition,
                ptr::null(),
            )
        };
        check("cuzk_post_submit", st, || self.last_error())?;
        Ok(Job(h))
    }
}

/// Vanilla proofs as the C ABI takes them: a pointer and a length each.
/// Empty slices give dangling, non-null pointers that are never read (n = 0
/// is refused as invalid_argument).
fn vanilla_table<V: AsRef<[u8]>>(vanilla: &[V]) -> (Vec<*const u8>, Vec<ffi::size_t>) {
    (
        vanilla.iter().map(|v| v.as_ref().as_ptr()).collect(),
        vanilla.iter().map(|v| v.as_ref().len() as _).collect(),
    )
}

// ---- Filecoin SnapDeals (EmptySectorUpdate) ---------------------------------------

/// Filecoin's RegisteredUpdateProof ids, the registered proof the update
/// functions take (the C ABI takes the number).
pub mod registered_update {
    /// StackedDrg2KiBV1.
    pub const STACKED_DRG_2KIB_V1: i32 = 0;
    /// StackedDrg8MiBV1.
    pub const STACKED_DRG_8MIB_V1: i32 = 1;
    /// StackedDrg512MiBV1.
    pub const STACKED_DRG_512MIB_V1: i32 = 2;
    /// StackedDrg32GiBV1.
    pub const STACKED_DRG_32GIB_V1: i32 = 3;
    /// StackedDrg64GiBV1.
    pub const STACKED_DRG_64GIB_V1: i32 = 4;
}

impl Key {
    /// A development update key (NOT a ceremony) for a RegisteredUpdateProof.
    pub fn update_setup_dev(registered_proof: i32) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let st = unsafe { ffi::cuzk_update_key_setup_dev(&mut h, registered_proof, 0, eb.ptr(), eb.len() as _) };
        check("cuzk_update_key_setup_dev", st, || eb.text())?;
        Ok(Key(h))
    }

    /// An update proving key for a RegisteredUpdateProof mapped from a
    /// bellperson .params file (Filecoin's v28-empty-sector-update-…params).
    pub fn update_load(registered_proof: i32, params: &std::path::Path) -> Result<Key> {
        abi()?;
        let mut eb = ErrBuf::new();
        let mut h = ptr::null_mut();
        let p = c_path(params);
        let st =
            unsafe { ffi::cuzk_update_key_load(&mut h, registered_proof, p.as_ptr(), 0, eb.ptr(), eb.len() as _) };
        check("cuzk_update_key_load", st, || eb.text())?;
        Ok(Key(h))
    }

    /// Verifies an update proof (192 bytes a partition) of a
    /// RegisteredUpdateProof for the commitments and `h` (0: the production
    /// value); the key is an update key (or verifying key) of its circuit.
    pub fn update_verify(
        &self,
        registered_proof: i32,
        comm_r_old: &[u8; 32],
        comm_d_new: &[u8; 32],
        comm_r_new: &[u8; 32],
        h: u32,
        proof: &[u8],
    ) -> Result<bool> {
        let mut ok = 0i32;
        let st = unsafe {
            ffi::cuzk_update_verify(
                &mut ok,
                self.0,
                registered_proof,
                comm_r_old.as_ptr(),
                comm_d_new.as_ptr(),
                comm_r_new.as_ptr(),
                h,
                proof.as_ptr(),
                proof.len() as _,
            )
        };
        check("cuzk_update_verify", st, || self.last_error())?;
        Ok(ok == 1)
    }
}

impl Engine {
    /// Registers an update key (its circuit travels with it, as for a PoSt key).
    pub fn add_update_key(&self, key: &Key, name: &str) -> Result<u32> {
        self.add_post_key(key, name)
    }

    /// Queues the update proof of a sector from its vanilla partition proofs
    /// (`vanilla[k]`: partition k's bytes, borrowed for the call; as many as
    /// the proof type has partitions) under `key`, an update key of the
    /// proof type. `h` is the encoding's h, 0 for the production value (1
    /// for 2 KiB, otherwise 10). The proofs are read and checked against the
    /// commitments before anything is queued: a bad one fails here
    /// (bad_length, bad_format), naming `vanilla[k]`.
    pub fn update_submit<V: AsRef<[u8]>>(
        &self,
        key: u32,
        comm_r_old: &[u8; 32],
        comm_d_new: &[u8; 32],
        comm_r_new: &[u8; 32],
        h: u32,
        vanilla: &[V],
    ) -> Result<Job> {
        let (ptrs, lens) = vanilla_table(vanilla);
        let mut j = ptr::null_mut();
        let st = unsafe {
            ffi::cuzk_update_submit(
                &mut j,
                self.h,
                key,
                comm_r_old.as_ptr(),
                comm_d_new.as_ptr(),
                comm_r_new.as_ptr(),
                h,
                ptrs.as_ptr(),
                lens.as_ptr(),
                vanilla.len() as _,
                ptr::null(),
            )
        };
        check("cuzk_update_submit", st, || self.last_error())?;
        Ok(Job(j))
    }
}
