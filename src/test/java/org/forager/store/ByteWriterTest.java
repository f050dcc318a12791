package org.forager.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class ByteWriterTest {

  @Test
  void anArrayHandedOverIsNeverWrittenAgain() {
    ByteWriter exact = new ByteWriter(16).writeLongBigEndian(1).writeLongBigEndian(2);
    byte[] first = exact.toByteArray();
    byte[] expected = first.clone();
    exact.writeByte(7).writeLongBigEndian(-1);
    assertArrayEquals(expected, first, "written after it was handed over");
    byte[] second = exact.toByteArray();
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 7, -1, -1, -1, -1, -1, -1, -1, -1},
        second);
  }

  @Test
  void aWriterWithRoomToSpareGivesExactlyTheBytesWritten() {
    ByteWriter roomy = new ByteWriter(64).writeShortBigEndian(0x0102).writeVarLong(300);
    byte[] bytes = roomy.toByteArray();
    assertArrayEquals(new byte[] {1, 2, (byte) 0xAC, 0x02}, bytes);
    roomy.writeByte(9);
    assertArrayEquals(new byte[] {1, 2, (byte) 0xAC, 0x02}, bytes);
  }

  @Test
  void aResetWriterWritesItsBufferAgainButNeverOneHandedOver() {
    ByteWriter writer = new ByteWriter(16).writeLongBigEndian(2).writeLongBigEndian(3); // exactly full
    byte[] handedOver = writer.toByteArray();
    writer.reset(8, 1024).writeLongBigEndian(4);
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3}, handedOver,
        "written after it was handed over");
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 4}, writer.copy());

    byte[] copied = writer.copy();
    writer.reset(8, 1024).writeByte(5);
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 4}, copied);
    assertArrayEquals(new byte[] {5}, writer.copy(), "the bytes before the reset are forgotten");

    writer.writeBytes(new byte[4096]);
    writer.reset(8, 1024).writeByte(6);
    assertArrayEquals(new byte[] {6}, writer.copy(), "a buffer grown past what is kept is let go");
  }
}
