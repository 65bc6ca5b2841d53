// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// main.rs -- the Rust coverage program (Debian's rustc 1.63, LLVM 14): a
// generic function used with two types, a match, a closure, a function
// nobody calls.
fn largest<T: PartialOrd + Copy>(xs: &[T]) -> T {
    let mut m = xs[0];
    for &x in xs {
        if x > m {
            m = x;
        }
    }
    m
}

fn kind(n: i32) -> &'static str {
    match n {
        0 => "zero",
        1 | 2 => "small",
        x if x < 0 => "negative",
        _ => "large",
    }
}

#[allow(dead_code)]
fn unused(n: i32) -> i32 {
    if n > 3 { n * 2 } else { n }
}

fn main() {
    let add = |a: i32, b: i32| if a > b { a - b } else { a + b };
    let mut total = 0;
    for i in -1..4 {
        total += add(i, 1);
        println!("{}", kind(i));
    }
    println!("{} {} {}", total, largest(&[3, 9, 2]), largest(&[1.5, 0.5]));
}
