fn main() {
    println!("review-tui");
}
