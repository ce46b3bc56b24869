#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives back the pages of read-only data that a program has read and will not need soon, so
/// that resident memory holds what it keeps rather than every page it once looked at.
public enum ResidentPages {
    /// Drops this process's resident pages that lie wholly inside `bytes`; a page `bytes` shares
    /// with anything else stays. `bytes` must be data that is never written, in a file mapping: a
    /// mapped data file, a literal in the binary, the loader's tables. The kernel maps those pages
    /// again from its page cache, unchanged, when they are next read (no disk access while they
    /// stay cached). Never call it on heap, stack or other written memory: it would be lost. (The
    /// binary's literals sit in its read-write segment here, beside written data: hence whole
    /// pages only.)
    public static func giveBack(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        let first = (Int(bitPattern: start) + pageSize - 1) & ~(pageSize - 1)
        let end = (Int(bitPattern: start) + bytes.count) & ~(pageSize - 1)
        guard end > first else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, Int32(MADV_DONTNEED))
    }

    public static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// How many of the pages under `bytes` (rounded out to whole pages) this process has mapped
    /// now, from /proc/self/pagemap; nil when that cannot be read.
    public static func residentCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let first = Int(bitPattern: start) / pageSize
        let last = (Int(bitPattern: start) + bytes.count - 1) / pageSize
        let descriptor = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var entries = [UInt64](repeating: 0, count: last - first + 1)
        let wanted = entries.count * 8
        let read = entries.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(first * 8)) }
        guard read == wanted else { return nil }
        return entries.filter { $0 >> 63 == 1 }.count  // bit 63: present
    }

    /// The running program's relocation table (ELF `DT_RELA`, `.rela.dyn`): the dynamic loader
    /// reads it once, before `main`, to fix up the addresses in the program's data, and nothing
    /// reads it again. A position-independent Swift program with the standard library linked in
    /// has a large one (onthemap: 2.8 MB, about 116,000 entries), all of it resident after the
    /// start. Nil when the program has none, or is not an ELF program this can read.
    public static func relocationTable() -> UnsafeRawBufferPointer? {
        #if canImport(Glibc)
            // <sys/auxv.h> is not in the Glibc module, so `getauxval` is looked up. AT_PHDR (3): the
            // program's headers in memory; AT_PHNUM (5): how many.
            typealias GetAuxiliaryValue = @convention(c) (UInt) -> UInt
            let defaultScope = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            guard let symbol = dlsym(defaultScope, "getauxval") else { return nil }
            let getauxval = unsafeBitCast(symbol, to: GetAuxiliaryValue.self)
            let headers = getauxval(3)
            let count = Int(getauxval(5))
            guard headers != 0, count > 0, let first = UnsafeRawPointer(bitPattern: headers) else { return nil }
            // Elf64_Phdr: 56 bytes, p_type at 0, p_vaddr at 16. PT_PHDR (6) places the program;
            // PT_DYNAMIC (2) holds the dynamic section.
            func header(_ index: Int) -> (type: UInt32, address: UInt) {
                let entry = first + index * 56
                let address = entry.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                return (entry.loadUnaligned(as: UInt32.self), UInt(address))
            }
            guard let programHeaders = (0..<count).map(header).first(where: { $0.type == 6 }),
                let dynamic = (0..<count).map(header).first(where: { $0.type == 2 })
            else { return nil }
            let base = headers &- programHeaders.address
            guard var entry = UnsafeRawPointer(bitPattern: base &+ dynamic.address) else { return nil }
            // Elf64_Dyn: 16 bytes, a tag and a value; DT_RELA (7) an address, DT_RELASZ (8) its size.
            // glibc's loader has already added the load address to DT_RELA's value here, where the
            // file holds an offset: take an address below the program's base as an offset.
            var (table, size): (UInt, Int) = (0, 0)
            while true {
                let tag = entry.loadUnaligned(as: Int64.self)
                let value = entry.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                if tag == 0 { break }
                if tag == 7 { table = UInt(value) < base ? base &+ UInt(value) : UInt(value) }
                if tag == 8 { size = Int(value) }
                entry += 16
            }
            guard table != 0, size > 0, let start = UnsafeRawPointer(bitPattern: table) else { return nil }
            return UnsafeRawBufferPointer(start: start, count: size)
        #else
            return nil
        #endif
    }
}
