//! Loads every built module's bundle through HIP, resolves every kernel of
//! the manifest in it, and runs affine_f32 once: what a Candle ROCm backend
//! does with `crk_kernels::X.code_object()`. HIP is opened at run time
//! (CRK_HIP_LIBRARY, else libamdhip64.so), so this builds everywhere; without
//! a HIP runtime or a GPU it prints "skipped: ..." and exits 0.
//!
//!     cargo run --offline --example load_module

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_void};
use std::process::exit;

#[link(name = "dl")]
extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}
const RTLD_NOW: c_int = 2;

type Ptr = *mut c_void;
/// The HIP entry points this example uses (hip_runtime_api.h).
struct Hip {
    init: unsafe extern "C" fn(u32) -> c_int,
    device_count: unsafe extern "C" fn(*mut c_int) -> c_int,
    device_name: unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int,
    error_string: unsafe extern "C" fn(c_int) -> *const c_char,
    module_load_data: unsafe extern "C" fn(*mut Ptr, *const c_void) -> c_int,
    module_unload: unsafe extern "C" fn(Ptr) -> c_int,
    module_get_function: unsafe extern "C" fn(*mut Ptr, Ptr, *const c_char) -> c_int,
    malloc: unsafe extern "C" fn(*mut Ptr, usize) -> c_int,
    free: unsafe extern "C" fn(Ptr) -> c_int,
    memcpy: unsafe extern "C" fn(Ptr, *const c_void, usize, c_int) -> c_int,
    launch: unsafe extern "C" fn(Ptr, u32, u32, u32, u32, u32, u32, u32, Ptr, *mut Ptr, *mut Ptr) -> c_int,
    synchronize: unsafe extern "C" fn() -> c_int,
}
const HOST_TO_DEVICE: c_int = 1;
const DEVICE_TO_HOST: c_int = 2;

fn dl_error() -> String {
    let e = unsafe { dlerror() };
    if e.is_null() { "unknown error".into() } else { unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned() }
}

fn open_hip(lib: &str) -> Result<Hip, String> {
    let name = CString::new(lib).unwrap();
    let h = unsafe { dlopen(name.as_ptr(), RTLD_NOW) };
    if h.is_null() {
        return Err(dl_error());
    }
    let sym = |s: &str| -> Result<*mut c_void, String> {
        let c = CString::new(s).unwrap();
        let p = unsafe { dlsym(h, c.as_ptr()) };
        if p.is_null() { Err(format!("{}: no symbol {}", lib, s)) } else { Ok(p) }
    };
    // SAFETY: each symbol has the C signature of its field (HIP's API).
    unsafe {
        Ok(Hip {
            init: std::mem::transmute(sym("hipInit")?),
            device_count: std::mem::transmute(sym("hipGetDeviceCount")?),
            device_name: std::mem::transmute(sym("hipDeviceGetName")?),
            error_string: std::mem::transmute(sym("hipGetErrorString")?),
            module_load_data: std::mem::transmute(sym("hipModuleLoadData")?),
            module_unload: std::mem::transmute(sym("hipModuleUnload")?),
            module_get_function: std::mem::transmute(sym("hipModuleGetFunction")?),
            malloc: std::mem::transmute(sym("hipMalloc")?),
            free: std::mem::transmute(sym("hipFree")?),
            memcpy: std::mem::transmute(sym("hipMemcpy")?),
            launch: std::mem::transmute(sym("hipModuleLaunchKernel")?),
            synchronize: std::mem::transmute(sym("hipDeviceSynchronize")?),
        })
    }
}

impl Hip {
    fn check(&self, e: c_int, what: &str) -> Result<(), String> {
        if e == 0 {
            return Ok(());
        }
        let s = unsafe { CStr::from_ptr((self.error_string)(e)) }.to_string_lossy();
        Err(format!("{}: {} (HIP error {})", what, s, e))
    }
}

/// y = 2x + 1 over 1000 f32 through affine_f32 (Candle's parameter list).
fn run_affine(hip: &Hip, module: Ptr) -> Result<(), String> {
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let mut y = vec![0f32; n];
    let mut f: Ptr = std::ptr::null_mut();
    let name = CString::new("affine_f32").unwrap();
    unsafe {
        hip.check((hip.module_get_function)(&mut f, module, name.as_ptr()), "hipModuleGetFunction(affine_f32)")?;
        let (mut dx, mut dy): (Ptr, Ptr) = (std::ptr::null_mut(), std::ptr::null_mut());
        hip.check((hip.malloc)(&mut dx, n * 4), "hipMalloc")?;
        hip.check((hip.malloc)(&mut dy, n * 4), "hipMalloc")?;
        hip.check((hip.memcpy)(dx, x.as_ptr() as *const c_void, n * 4, HOST_TO_DEVICE), "hipMemcpy")?;
        let (numel, num_dims, info, mul, add) = (n, 1usize, std::ptr::null::<usize>(), 2f32, 1f32);
        let mut args: [Ptr; 7] = [
            &numel as *const _ as Ptr, &num_dims as *const _ as Ptr, &info as *const _ as Ptr,
            &dx as *const _ as Ptr, &dy as *const _ as Ptr, &mul as *const _ as Ptr, &add as *const _ as Ptr,
        ];
        let grid = ((n + 255) / 256) as u32;
        let null = std::ptr::null_mut();
        hip.check((hip.launch)(f, grid, 1, 1, 256, 1, 1, 0, null, args.as_mut_ptr(), null as *mut Ptr), "hipModuleLaunchKernel")?;
        hip.check((hip.synchronize)(), "hipDeviceSynchronize")?;
        hip.check((hip.memcpy)(y.as_mut_ptr() as Ptr, dy as *const c_void, n * 4, DEVICE_TO_HOST), "hipMemcpy")?;
        (hip.free)(dx);
        (hip.free)(dy);
    }
    match (0..n).find(|&i| y[i] != 2.0 * x[i] + 1.0) {
        Some(i) => Err(format!("affine_f32: y[{}] = {}, expected {}", i, y[i], 2.0 * x[i] + 1.0)),
        None => Ok(()),
    }
}

fn main() {
    let lib = std::env::var("CRK_HIP_LIBRARY").unwrap_or_else(|_| "libamdhip64.so".into());
    let hip = match open_hip(&lib) {
        Ok(h) => h,
        Err(e) => {
            println!("skipped: no HIP runtime ({})", e);
            return;
        }
    };
    let mut count = 0;
    let ready = unsafe { (hip.init)(0) == 0 && (hip.device_count)(&mut count) == 0 };
    if !ready || count == 0 {
        println!("skipped: no GPU (HIP runtime {} found, no device)", lib);
        return;
    }
    let mut name = [0 as c_char; 256];
    unsafe { (hip.device_name)(name.as_mut_ptr(), 256, 0) };
    let device = unsafe { CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned();
    if let Err(e) = run(&hip, &device) {
        eprintln!("load_module: {}: FAILED: {}", device, e);
        exit(1);
    }
}

fn run(hip: &Hip, device: &str) -> Result<(), String> {
    let (mut modules, mut kernels) = (0, 0);
    for &id in crk_kernels::BUILT_MODULES {
        let m = id.module();
        let mut module: Ptr = std::ptr::null_mut();
        let e = unsafe { (hip.module_load_data)(&mut module, m.code_object().as_ptr() as *const c_void) };
        hip.check(e, &format!("hipModuleLoadData({})", m.name()))?;
        for k in m.kernels() {
            let c = CString::new(k.name).unwrap();
            let mut f: Ptr = std::ptr::null_mut();
            let e = unsafe { (hip.module_get_function)(&mut f, module, c.as_ptr()) };
            hip.check(e, &format!("hipModuleGetFunction({}, {})", m.name(), k.name))?;
            kernels += 1;
        }
        if id == crk_kernels::Id::Affine {
            run_affine(hip, module)?;
        }
        unsafe { (hip.module_unload)(module) };
        modules += 1;
    }
    println!("load_module: {}: {} modules loaded, {} kernels resolved, affine_f32 correct", device, modules, kernels);
    Ok(())
}
