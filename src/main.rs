fn main() {
    std::process::exit(nesmind::cli::main());
}
